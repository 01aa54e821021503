/**
 * `embed=iframe.html` as a player (issue 25): the oEmbed markup in a document of its own, answered as HTML other
 * sites frame, sandboxed in an opaque origin (PLAYER_POLICY, lib/http/security-headers.ts). A known provider's
 * widget scripts, which `iframe.scripts` holds apart, are put back so that its markup works. Only the `iframe`
 * field Glance made is a player: a custom rule of that name is embedded as any other value.
 */
import { getPath } from '../http/data-paths.ts';
import { embedValue, type Envelope } from '../http/respond.ts';
import { PLAYER_POLICY } from '../http/security-headers.ts';
import type { ApiResponse } from '../http/types.ts';
import { attributesOf } from '../oembed/markup.ts';
import type { DataRules } from '../query/options.ts';

const PLAYER_PATH = 'iframe.html';

/** True when `embed` addresses the oEmbed player rather than a custom rule's value. */
export const isPlayer = (path: string, rules: DataRules | undefined): boolean =>
  path === PLAYER_PATH && !(rules !== undefined && Object.hasOwn(rules, 'iframe'));

/** `<script src>` elements from `iframe.scripts`: an http(s) source, string or boolean attributes, nothing else. */
function scriptsOf(value: unknown): string {
  if (!Array.isArray(value)) return '';
  return value
    .filter((script): script is Record<string, unknown> => typeof script === 'object' && script !== null && typeof script.src === 'string' && /^https?:\/\//i.test(script.src))
    .map((script) => {
      const attributes = Object.entries(script).filter((entry): entry is [string, string | true] => typeof entry[1] === 'string' || entry[1] === true);
      return `<script${attributesOf(attributes)}></script>`;
    })
    .join('');
}

export function playerResponse(envelope: Envelope, headers: Record<string, string>): ApiResponse {
  const markup = String(embedValue(envelope, PLAYER_PATH));
  const body =
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<style>body{margin:0}</style></head><body>${markup}${scriptsOf(getPath(envelope.data, 'iframe.scripts'))}</body></html>`;
  return {
    statusCode: 200,
    headers: { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PLAYER_POLICY },
    body,
  };
}
