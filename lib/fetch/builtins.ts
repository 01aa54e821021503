/**
 * node:https (TLS with it) and node:zlib, read on first use instead of imported: about 15 ms of CPU that init need not
 * spend (bench/coldstart). `loadTransports` reads them once init is over (functions/api.ts), before a first request
 * would pay for them on its clock.
 */
export const https = () => process.getBuiltinModule('node:https');
export const zlib = () => process.getBuiltinModule('node:zlib');

export function loadTransports(): void {
  https();
  zlib();
}
