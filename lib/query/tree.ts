/**
 * The raw query string → a tree of keys (docs/CONTRACT.md §1). `screenshot.overlay.browser=dark` and
 * `screenshot[overlay][browser]=dark` both give root → screenshot → overlay → browser with the value `dark`;
 * numeric keys (`waitUntil.0`) are plain children that the readers turn into lists. Children live in Maps,
 * so no key can reach an object prototype, and the segments that pollute prototypes elsewhere are refused
 * outright.
 */
import { GlanceError, invalidParam } from '../errors.ts';

export interface QueryNode {
  /** The value given for this very key (`screenshot=false`); `''` for a bare key; undefined if only sub-keys. */
  value: string | undefined;
  /** Sub-keys in the order first seen, as sent (not yet camelCased). */
  readonly children: Map<string, QueryNode>;
}

export const LIMITS = {
  /** API Gateway allows more; no legitimate Microlink query comes near this. */
  length: 16 * 1024,
  keys: 200,
  /** Deep enough for data rules nested to their own bound (lib/rules/limits.ts MAX_NESTING, 3 levels) with
   *  fallback indices: `data.f.0.attr.g.0.attr.h.0.selector.0` is 11; deeper rules meet that clearer bound. */
  depth: 12,
} as const;

/** Keys that would reach an object's prototype if ever used as property names. */
export const POLLUTING: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The marker a `key[]` segment becomes: "the next index". */
const APPEND = '[]';

export const newNode = (): QueryNode => ({ value: undefined, children: new Map() });

function decode(text: string, key: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch (cause) {
    throw new GlanceError(
      'EINVALQUERY',
      `The \`${key}\` parameter is invalid: it holds a malformed percent-encoding (use %XX with two hex digits).`,
      { data: { [key]: 'malformed percent-encoding' }, cause },
    );
  }
}

/** `a.b[c][]` → `['a', 'b', 'c', '[]']`. */
function segments(key: string): string[] {
  const dotted = key.replace(/\[([^\]]*)\]/g, (_, inner: string) => `.${inner === '' ? APPEND : inner}`);
  const parts = dotted.split('.');
  if (parts.length > LIMITS.depth) {
    throw invalidParam(key, `keys may nest at most ${LIMITS.depth} levels deep`);
  }
  for (const part of parts) {
    if (part === '') throw invalidParam(key, 'a key may not have an empty segment (check for stray dots)');
    if (POLLUTING.has(part)) throw invalidParam(key, `\`${part}\` is not accepted as a key`);
  }
  return parts;
}

/** Compares repeated values the way they will be read: a bare key and `true` say the same. */
const sameValue = (a: string, b: string): boolean => {
  const norm = (v: string) => (v === '' ? 'true' : /^(true|false)$/i.test(v) ? v.toLowerCase() : v);
  return norm(a) === norm(b);
};

export function buildTree(rawQueryString: string): QueryNode {
  const raw = rawQueryString.startsWith('?') ? rawQueryString.slice(1) : rawQueryString;
  if (raw.length > LIMITS.length) {
    throw new GlanceError(
      'EINVALQUERY',
      `The query string is too long: at most ${LIMITS.length} characters are accepted.`,
      { data: { query: `longer than ${LIMITS.length} characters` } },
    );
  }
  const pairs = raw.split('&').filter((pair) => pair !== '');
  if (pairs.length > LIMITS.keys) {
    throw new GlanceError(
      'EINVALQUERY',
      `The query string has too many parameters: at most ${LIMITS.keys} are accepted.`,
      { data: { query: `more than ${LIMITS.keys} parameters` } },
    );
  }

  const root = newNode();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const key = decode(rawKey, rawKey);
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1), key);
    if (key === '') continue;

    let node = root;
    for (const segment of segments(key)) {
      const name = segment === APPEND ? String(node.children.size) : segment;
      let next = node.children.get(name);
      if (!next) {
        next = newNode();
        node.children.set(name, next);
      }
      node = next;
    }
    if (node.value === undefined) node.value = value;
    else if (!sameValue(node.value, value)) {
      throw invalidParam(key, 'it was given twice with different values; give it once');
    }
  }
  return root;
}
