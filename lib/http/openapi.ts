/**
 * `GET /openapi.json`: the OpenAPI 3.1 description of the API (docs/openapi.json, the one copy). A path of its own,
 * like `/health`, so it never collides with `GET /?url=…`; no key is needed, as for the documentation it describes.
 */
import { withStandardHeaders } from './headers.ts';
import type { ApiResponse } from './types.ts';

export const OPENAPI_PATH = '/openapi.json';

/** The document changes only with a deployment: a few minutes at the edge and in browsers are harmless. */
const CACHE_CONTROL = 'public, max-age=300';

let body: Promise<string> | undefined;

/** Loaded on the first request for it, never on a cold start's path. */
export async function openapiResponse(): Promise<ApiResponse> {
  body ??= import('./openapi-document.cts').then(({ default: document }) => JSON.stringify(document));
  return withStandardHeaders({
    statusCode: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': CACHE_CONTROL },
    body: await body,
  });
}
