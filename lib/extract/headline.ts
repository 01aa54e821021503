/**
 * A page title that is a clean headline plus the site's or section's affix ("Headline - Telebasel",
 * "Chronik: Headline") answers the headline, when the page states that headline on its own elsewhere (JSON-LD
 * `headline`, the entry title, the `<h1>`). A title without such a twin is never shortened: guessing which part
 * of "A: B" is the affix would cut real titles.
 */

/**
 * Separators sites put between a headline and its affix, in every script: bars, dashes of any kind, colons,
 * bullets, guillemets, slashes and arrows, their full-width forms included.
 */
const SEPARATORS = '(?:::|[|¦│┃ǀ｜:：·•・»«›‹~/／\\\\⋆★►▶▷◆■●]|\\p{Pd})';
const SEPARATOR = new RegExp(`^\\s*${SEPARATORS}\\s*`, 'u');
const SEPARATED_HEAD = new RegExp(`^(.*?\\S)\\s*${SEPARATORS}\\s*$`, 'u');
/** Full-width separators stand without spaces around them, a colon after a word; the others need them (a hyphen
 *  joins words). */
const AFFIX_BREAK = new RegExp(`\\s+${SEPARATORS}\\s+|:\\s+|\\s*[｜：／－・]\\s*`, 'gu');
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
    const match = SEPARATED_HEAD.exec(head);
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

/**
 * `title` without an affix that names the site ("Headline | Site", "Site: Headline", "标题｜站点"), affixes at both
 * ends included; `isSite` tells a site's name. The headline left must not start in lower case ("Facebook - log in or
 * sign up" is the site's own page, not a headline), and must be longer than what was cut, unless `isDeclared` says
 * a cut tail is the name the site declares, word for word ("Penny - Stardew Valley Wiki"; "Amazon | Home" keeps its
 * name).
 */
export function withoutSiteAffix(title: string, isSite: (part: string) => boolean, isDeclared: (part: string) => boolean): string {
  let value = title;
  for (let cut = true; cut; ) {
    cut = false;
    const breaks = [...value.matchAll(AFFIX_BREAK)];
    const first = breaks[0];
    const rest = first ? value.slice(first.index + first[0].length) : '';
    // The tail may itself hold separators ("Enchufla Figuren - Salsa-Figuren - Rueda in Berlin"), or stand in
    // brackets ("Headline (neues deutschland)").
    const tails = [...breaks.map((at) => ({ at: at.index, tail: value.slice(at.index + at[0].length) })), bracketed(value)];
    const site = tails.find(({ at, tail }) => at > 0 && isSite(tail) && (at > tail.length || isDeclared(tail)));
    if (site) {
      value = value.slice(0, site.at);
      cut = true;
    } else if (first && isSite(value.slice(0, first.index)) && rest.length > first.index && !/^\p{Ll}/u.test(rest)) {
      value = rest;
      cut = true;
    }
  }
  return value.trim();
}

/** A bracketed tail ("Headline (Site)") and where it starts; a tail that cuts nothing otherwise. */
function bracketed(title: string): { at: number; tail: string } {
  const match = /\s+\(([^()]+)\)$/u.exec(title);
  return match ? { at: match.index, tail: match[1]! } : { at: 0, tail: '' };
}

/** The parts a title's separators set apart ("117: Guest | Show" → "117", "Guest", "Show"). */
export const titleParts = (title: string): string[] => title.split(AFFIX_BREAK).map((part) => part.trim());
