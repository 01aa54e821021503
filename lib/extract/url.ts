import { baseParts, serialisedUrl, type BaseParts } from './serialised-url.ts';

/**
 * An http(s) address written absolute: WHATWG URL parsing never reads the base for it (after `http://` comes the
 * authority). `http:x` is not one: with an http base it resolves as relative.
 */
const ABSOLUTE_WEB_URL = /^https?:\/\//i;
/** A scheme other than http(s) (`javascript:`, `mailto:`, `data:`): what it resolves to is never http(s). */
const OTHER_SCHEME = /^(?!https?:)[a-z][a-z0-9+.-]*:/i;

/** The last base's parts (a page's links are resolved against one base), undefined for a base not http(s). */
let lastBase: string | undefined;
let lastParts: BaseParts | undefined;

function partsOf(base: string): BaseParts | undefined {
  if (base !== lastBase) {
    const parsed = URL.parse(base);
    lastParts = parsed ? baseParts(parsed) : undefined;
    lastBase = base;
  }
  return lastParts;
}

/**
 * Resolves a URL written in the page against the page's base. Only http(s) results are kept: `data:`,
 * `javascript:` and friends are never a usable media or canonical address.
 */
export function resolveUrl(raw: string | undefined, base: string): string | undefined {
  if (!raw) return undefined;
  const value = raw.trim();
  if (value === '' || value === '#') return undefined;
  const parts = partsOf(base);
  const serialised = parts === undefined ? undefined : serialisedUrl(value, parts);
  if (serialised !== undefined) return serialised;
  if (OTHER_SCHEME.test(value)) return undefined;
  // Parsing with a base parses the base again on every call; half the links of a page are written absolute.
  const href = (ABSOLUTE_WEB_URL.test(value) ? URL.parse(value) : URL.parse(value, base))?.href;
  // The serialised scheme says http(s) without the `protocol` getter's work; such a URL always has a host (an
  // empty one fails to parse for these schemes).
  return href !== undefined && (href.startsWith('https://') || href.startsWith('http://')) ? href : undefined;
}

/** The page's base: `<base href>` resolved against the page URL, else the page URL. */
export function baseUrl(pageUrl: string, baseHref: string | undefined): string {
  return resolveUrl(baseHref, pageUrl) ?? pageUrl;
}

export function looksLikeUrl(value: string): boolean {
  if (/^(?:https?:)?\/\/\S+$/i.test(value)) return true;
  // `www.` + something + `.` + something, without whitespace: `/^www\.\S+\.\S+$/` backtracked quadratically.
  const dot = value.indexOf('.', 5);
  return dot !== -1 && dot < value.length - 1 && /^www\.\S+$/i.test(value);
}
