/**
 * Our own failures, described for the operator's log: an EFATAL answer says only "logged with request id …" (its
 * cause may name paths, processes or a parameter), so the cause is written here, once, as one structured record
 * both transports log as they log everything else (Powertools in Lambda, a JSON line locally).
 */
import { isGlanceError } from '../errors.ts';

/** One error of the chain: what it says, its code (errno's, the SDK's, a GlanceError's), where it was thrown. */
export interface ErrorRecord {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly stack?: string;
  readonly cause?: ErrorRecord;
}

export interface FaultRecord {
  /**
   * `EFATAL` when a caller was answered EFATAL for it; else `background` (the cache store, a refresh, a sweep),
   * `refresh` (a Lambda self-invocation) or `start-up` (what start-up could not load: a corrupt adblock engine, say).
   */
  readonly msg: string;
  /** The request answered EFATAL; absent for a failure no request is waiting on. */
  readonly requestId?: string;
  readonly error: ErrorRecord;
}

/** Causes followed at most: an SDK error wraps one or two; a cycle must not loop. */
const MAX_CAUSES = 5;

/** Whether the answer for `error` is EFATAL: ours, whether a module named it so or it arrived untranslated. */
export const isFatal = (error: unknown): boolean => !isGlanceError(error) || error.code === 'EFATAL';

export function errorRecord(error: unknown, depth = 0): ErrorRecord {
  if (!(error instanceof Error)) return { name: typeof error, message: String(error) };
  const code = (error as { code?: unknown }).code;
  const { cause } = error as { cause?: unknown };
  return {
    name: error.name,
    message: error.message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code: String(code) } : {}),
    ...(error.stack ? { stack: error.stack } : {}),
    ...(cause !== undefined && depth < MAX_CAUSES ? { cause: errorRecord(cause, depth + 1) } : {}),
  };
}

export const faultRecord = (msg: string, error: unknown, requestId: string | undefined): FaultRecord => ({
  msg,
  ...(requestId === undefined ? {} : { requestId }),
  error: errorRecord(error),
});
