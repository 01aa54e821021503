/**
 * Network failures (http, net, tls, dns, zlib) become GlanceErrors here, at the edge that meets them: the
 * message names the cause in words, the original stays as `cause`, no stack reaches a caller.
 */
import { GlanceError } from '../errors.ts';

/** What one fetch attempt is doing, for messages. */
export interface Attempt {
  readonly url: URL;
  readonly signal: AbortSignal;
  /** performance.now() when the whole fetch began. */
  readonly started: number;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL)/;

export function timedOut({ url, started }: Attempt, cause?: unknown): GlanceError {
  const elapsed = Math.round(performance.now() - started);
  return new GlanceError('ETIMEOUT', `Fetching ${url.href} ran out of time after ${elapsed} ms.`, { cause });
}

function codeOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string') return code;
  // net's autoSelectFamily tries several addresses and reports them together.
  if (error instanceof AggregateError) return error.errors.map(codeOf).find(Boolean);
  return codeOf(error.cause);
}

function describe(code: string | undefined, error: unknown, host: string): string {
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
      return `could not resolve host ${host}`;
    case 'ECONNREFUSED':
      return `${host} refused the connection`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `the connection to ${host} was reset`;
    case 'ETIMEDOUT':
      return `connecting to ${host} timed out`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return `${host} is unreachable`;
    case 'HPE_HEADER_OVERFLOW':
      return `${host} sent response headers that are too large`;
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return `the connection to ${host} closed unexpectedly`;
    default:
      break;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (code && TLS_CODE.test(code)) return `TLS error with ${host}: ${message}`;
  if (code?.startsWith('HPE_')) return `${host} sent an invalid HTTP response (${message})`;
  // A socket error's message names the address connected to (`connect EPROTO 203.0.113.5:443`): the caller gets
  // the code only, never what a name resolved to; the message stays on `cause`.
  return `${host} could not be fetched (${code ?? message})`;
}

/** Translates anything thrown while fetching: our own errors pass, a spent budget is ETIMEOUT, the rest EFETCH. */
export function fetchFailure(error: unknown, attempt: Attempt): GlanceError {
  if (error instanceof GlanceError) return error;
  if (attempt.signal.aborted) return timedOut(attempt, error);
  const reason = describe(codeOf(error), error, attempt.url.host);
  return new GlanceError('EFETCH', `Could not fetch ${attempt.url.href}: ${reason}.`, { cause: error });
}
