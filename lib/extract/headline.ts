/**
 * A page title that is a clean headline plus the site's or section's affix ("Headline - Telebasel",
 * "Chronik: Headline") answers the headline, when the page states that headline on its own elsewhere (JSON-LD
 * `headline`, the entry title, the `<h1>`). A title without such a twin is never shortened: guessing which part
 * of "A: B" is the affix would cut real titles.
 */

/** Separators sites put between a headline and its affix. */
const SEPARATOR = /^\s*(?:[|\-–—:·•»~/]|::)\s*/;
/** The longest affix taken for a site or section name, in words. */
const MAX_AFFIX_WORDS = 6;
/** A twin this short ("Home", "News") is a label, not a headline. */
const MIN_TWIN_LENGTH = 8;

const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** Scripts written without spaces between words: their sites join the affix without spaces too ("标题_腾讯新闻"). */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/** Lower case, typographic quotes as ASCII (one character for one, so offsets still match): a `<title>` often
 *  writes "Health's" where the `<h1>` writes "Health’s". */
const comparable = (text: string): string => text.toLowerCase().replace(/[\u2018\u2019\u2032]/g, "'").replace(/[\u201c\u201d\u2033]/g, '"');

/** Whether `title` is `twin` + separator + a short tail, or a short head + separator + `twin`. */
function affixed(title: string, twin: string): boolean {
  if (twin.length < MIN_TWIN_LENGTH || twin.length >= title.length) return false;
  const t = comparable(title);
  const c = comparable(twin);
  if (t.startsWith(c)) {
    const rest = title.slice(twin.length);
    const separator = SEPARATOR.exec(rest) ?? /^_/.exec(rest);
    if (separator === null || separator[0].length === 0) return false;
    const affix = rest.slice(separator[0].length);
    // The separator must be set off by space, unless the affix is in a script written without spaces.
    return (/\s/.test(rest[0] ?? '') || UNSPACED_SCRIPT.test(affix)) && fits(affix, twin);
  }
  if (t.endsWith(c)) {
    const head = title.slice(0, title.length - twin.length);
    const match = /^(.*?\S)\s*(?:[|\-–—:·•»~/]|::)\s*$/.exec(head);
    return match !== null && /\s$/.test(head) && fits(match[1] ?? '', twin);
  }
  return false;
}

/** An affix is short: a few words, and no longer than the headline it hangs on ("117: Guest on Topic | Podcast"
 *  is an episode of "Podcast", not "Podcast" with an affix). */
const fits = (affix: string, twin: string): boolean =>
  affix.trim() !== '' && words(affix) <= MAX_AFFIX_WORDS && affix.trim().length <= twin.length;

/** `title`, or the first of `twins` it is an affixed copy of. */
export function cleanHeadline(title: string, twins: readonly string[]): string {
  return twins.find((twin) => affixed(title, twin)) ?? title;
}
