/**
 * An http(s) address written absolute: WHATWG URL parsing never reads the base for it (after `http://` comes the
 * authority). `http:x` is not one: with an http base it resolves as relative.
 */
const ABSOLUTE_WEB_URL = /^https?:\/\//i;

/**
 * Resolves a URL written in the page against the page's base. Only http(s) results are kept: `data:`,
 * `javascript:` and friends are never a usable media or canonical address.
 */
export function resolveUrl(raw: string | undefined, base: string): string | undefined {
  if (!raw) return undefined;
  const value = raw.trim();
  if (value === '' || value === '#') return undefined;
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
