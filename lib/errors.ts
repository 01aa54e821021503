/**
 * The error catalogue (docs/CONTRACT.md §3): every failure a caller can see has a stable code, an HTTP status and a
 * JSend status. Foreign errors (undici, DNS, the browser, S3) are translated into these at the module that
 * meets them; anything that reaches the handler untranslated becomes EFATAL.
 */
export const ERRORS = {
  EINVALURL: 400,
  EINVALQUERY: 400,
  EINVALTTL: 400,
  EINVALSTTL: 400,
  EINVALOVERLAYBG: 400,
  EINVALEMBED: 400,
  EINVALDATA: 400,
  /** A Microlink parameter Glance does not offer: refused by name, never silently ignored. */
  EUNSUPPORTED: 400,
  EFORBIDDENURL: 403,
  /** `/mcp` from a browser page whose `Origin` is not this service's, a loopback page's or one GLANCE_MCP_ORIGINS lists. */
  EFORBIDDENORIGIN: 403,
  EMAXREDIRECTS: 400,
  /** `pdf.pageRanges` selects no page of the printed document: known only once the page is printed. */
  EPAGERANGE: 400,
  ETOOLARGE: 413,
  ENOTFOUNDELEMENT: 400,
  EFETCH: 502,
  /** `embed.proxy`: the field's URL answered something other than an image, video or audio file. */
  ENOTMEDIA: 502,
  /** The page crashed its own renderer (e.g. past the memory cap): the target's doing, so not tried twice. */
  EPAGECRASH: 502,
  EBRWSRTIMEOUT: 504,
  ETIMEOUT: 504,
  /** No browser page for this request now (queue full, too little time left, stopping): retry later. */
  EBUSY: 503,
  /** The request came from Glance itself (its hop header), or the target is Glance's own address: a loop. */
  ELOOP: 508,
  EMETHOD: 405,
  EAUTH: 401,
  /** Over a rate limit: deployed, answered at the edge (stacks/rate-limit.ts) before the function runs; on the local
   *  service, by its optional per-client limit (lib/http/rate-limit.ts). */
  ERATE: 429,
  EFATAL: 500,
} as const;

export type ErrorCode = keyof typeof ERRORS;

export interface GlanceErrorOptions {
  /** Per-parameter reasons, answered as the payload's `data` (`{ ttl: 'must be at least 1m' }`). */
  data?: Record<string, string>;
  cause?: unknown;
}

export class GlanceError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly data: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, options: GlanceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GlanceError';
    this.code = code;
    this.statusCode = ERRORS[code];
    this.data = options.data;
  }

  /** JSend: `fail` is the caller's problem, `error` is ours or the target's. */
  get status(): 'fail' | 'error' {
    return this.statusCode < 500 ? 'fail' : 'error';
  }
}

export const isGlanceError = (error: unknown): error is GlanceError => error instanceof GlanceError;

/** The error for a query parameter with an invalid value: names it and says what is accepted. */
export const invalidParam = (name: string, accepted: string, code: ErrorCode = 'EINVALQUERY'): GlanceError =>
  new GlanceError(code, `The \`${name}\` parameter is invalid: ${accepted}.`, { data: { [name]: accepted } });
