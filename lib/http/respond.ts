/** Turns results and errors into the contract's payloads (docs/CONTRACT.md §3, §6). */
import { GlanceError, isGlanceError } from '../errors.ts';
import type { Data } from '../data/fields.ts';
import type { ApiResponse } from './types.ts';
import { getPath } from './data-paths.ts';
import { stringifyInSlices } from './json-slices.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
/** Seconds a caller answered EBUSY should wait: about one render. */
const RETRY_AFTER_S = 2;

export interface Envelope {
  status: 'success';
  data: Data;
  statusCode: number | null;
  redirects: Array<{ statusCode: number; url: string }>;
  headers: Record<string, string>;
}

export const json = (statusCode: number, payload: unknown, headers: Record<string, string> = {}): ApiResponse => ({
  statusCode,
  headers: { 'content-type': JSON_TYPE, ...headers },
  body: JSON.stringify(payload),
});

/** `json` for a page's answer, which rule values can make megabytes long: written in slices (lib/http/json-slices.ts). */
export const jsonInSlices = async (statusCode: number, payload: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> => ({
  statusCode,
  headers: { 'content-type': JSON_TYPE, ...headers },
  body: await stringifyInSlices(payload),
});

/**
 * Content types of embedded custom fields by what they hold. Markup read from a target page is served so that a
 * browser opening the address runs none of it and guesses no other type: a CSP sandbox without scripts, and
 * nosniff.
 */
const EMBED_TYPES = {
  markdown: { 'content-type': 'text/markdown; charset=utf-8' },
  html: {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "sandbox; default-src 'none'; img-src * data:; style-src 'unsafe-inline'",
    'x-content-type-options': 'nosniff',
  },
} as const;

export const isHttpUrl = (value: string): boolean => /^https?:\/\//i.test(value);

/** The field `embed` addresses; EINVALEMBED when the page has none. */
export function embedValue(envelope: Envelope, path: string): NonNullable<unknown> {
  const value = getPath(envelope.data, path);
  if (value === undefined || value === null) {
    throw new GlanceError('EINVALEMBED', `The \`embed\` field \`${path}\` is absent or null for this page.`, {
      data: { embed: `\`${path}\` is not present in the response data` },
    });
  }
  return value;
}

export const redirect = (location: string, headers: Record<string, string>): ApiResponse => ({
  statusCode: 302,
  headers: { ...headers, location },
  body: '',
});

/**
 * `embed.proxy`'s answer: media bytes under their content type. nosniff, the sandboxing CSP, CORS and
 * `cross-origin-resource-policy: cross-origin` are every answer's (lib/http/headers.ts).
 */
export const mediaResponse = (media: { contentType: string; body: Buffer }, headers: Record<string, string>): ApiResponse => ({
  statusCode: 200,
  headers: { ...headers, 'content-type': media.contentType },
  body: media.body.toString('base64'),
  isBase64Encoded: true,
});

/**
 * `embed`: the addressed field instead of the envelope. A URL under a `url` key answers 302 so the request
 * address itself works as `<img src>`, CSS `url()`, a Markdown image or an og:image value. `format` says a
 * custom field holds Markdown or HTML (lib/rules/format.ts).
 */
export function embedResponse(
  envelope: Envelope,
  path: string,
  headers: Record<string, string>,
  format?: keyof typeof EMBED_TYPES,
): ApiResponse {
  const value = embedValue(envelope, path);
  if (typeof value === 'string' && path.split('.').at(-1) === 'url' && isHttpUrl(value)) return redirect(value, headers);
  if (typeof value === 'object') return json(200, value, headers);
  if (typeof value === 'string' && format) return { statusCode: 200, headers: { ...headers, 'x-content-type-options': 'nosniff', ...EMBED_TYPES[format] }, body: value };
  return { statusCode: 200, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' }, body: String(value) };
}

export interface ErrorContext {
  requestId: string;
  docsUrl: string;
  target: string | undefined;
}

/**
 * The error payload. Anything that is not a GlanceError is ours: EFATAL. An EFATAL answer says nothing beyond the
 * request id, whatever the error says (a path, a process, a parameter's name): its cause is in the log
 * (lib/http/fault.ts).
 */
export function errorResponse(error: unknown, { requestId, docsUrl, target }: ErrorContext): ApiResponse {
  const known = isGlanceError(error) && error.code !== 'EFATAL'
    ? error
    : new GlanceError('EFATAL', `An unexpected error occurred. It was logged with request id ${requestId}.`);
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  if (known.code === 'EMETHOD') headers.allow = 'GET, HEAD, OPTIONS';
  // A busy browser frees up within a render or two (https://www.rfc-editor.org/rfc/rfc9110#field.retry-after).
  if (known.code === 'EBUSY') headers['retry-after'] = String(RETRY_AFTER_S);
  return json(
    known.statusCode,
    {
      status: known.status,
      code: known.code,
      message: known.message,
      more: docsUrl,
      url: target ?? null,
      data: known.data ?? {},
    },
    headers,
  );
}
