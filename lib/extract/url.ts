/**
 * Resolves a URL written in the page against the page's base. Only http(s) results are kept: `data:`,
 * `javascript:` and friends are never a usable media or canonical address.
 */
export function resolveUrl(raw: string | undefined, base: string): string | undefined {
  if (!raw) return undefined;
  const value = raw.trim();
  if (value === '' || value === '#') return undefined;
  const url = URL.parse(value, base);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') return undefined;
  return url.href;
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
