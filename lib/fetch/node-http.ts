/**
 * node:http and node:https as their CommonJS modules. An ES import of node:http builds the module's facade by reading
 * every export, and Node 22's lazy WebSocket getters then load the whole of its bundled undici (node:http2 with it):
 * ~16 ms of the handler import's CPU time (29 ms for node:http alone; nodejs/node#57649). process.getBuiltinModule
 * skips the facade.
 */
export const http = process.getBuiltinModule('node:http');
export const https = process.getBuiltinModule('node:https');
