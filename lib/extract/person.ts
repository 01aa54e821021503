/**
 * Author candidates made into a person's name, or refused: a byline's role ("Brian Stevens, Vice President"),
 * its date ("Jane Roe | March 3, 2024") or the site's name after it ("Jane Roe | Site"), a role or desk alone
 * ("Staff", "Redaktion") told apart (`isDesk`).
 */
import { parseDate } from './date.ts';
import { normaliseText, textKey } from './text.ts';

/** Words of job titles and desks, in the languages of the corpora (whole words, case-insensitive). */
const ROLE =
  /(?<![\p{L}\p{N}])(?:staff|editor(?:ial)?s?|reporter|writer|correspondent|contributor|columnist|president|director|manager|founder|ceo|cto|cfo|head|chief|senior|lead|engineer|producer|analyst|officer|professor|journalist|team|desk|admin(?:istrator)?|board|redaktion|redakteur(?:in)?|autor(?:in)?|rédaction|redacción|redazione|redactie|redakcja|redaksjon|redaktionen|редакция|newsroom)(?![\p{L}\p{N}])/iu;

/** Separators after which a byline carries something else (a date, a role, the site). */
const BYLINE_BREAK = /\s+[|•·—–]\s+|\s+-\s+/;
/** The word a byline puts before its date, in the corpora's languages ("Jane Roe am 19. Oktober 2019", "le 7 mai"). */
const DATED = /\s+(?:on|am|vom|le|du|el|del|il|op|den|dnia|em|в)\s+(?=\S*\d|\p{L}+,?\s+\d)/u;

/** The name part of a byline, or undefined when nothing in it names anyone. `lang`: the page's, for its dates. */
export function personName(raw: string, siteNames: ReadonlySet<string>, lang?: string): string | undefined {
  const isDate = (part: string): boolean => parseDate(part, { lang }) !== undefined;
  let value = normaliseText(raw);
  // "Jane Roe | March 3, 2024", "Jane Roe - Staff Writer": the first part is the name.
  const [first = '', ...rest] = value.split(BYLINE_BREAK);
  if (rest.length > 0 && rest.some((part) => isDate(part) || ROLE.test(part) || siteNames.has(textKey(part)))) {
    value = first;
  }
  // "Jane Roe on March 3, 2024", "Jane Roe am 19. Oktober 2019 um 11:14 Uhr".
  const dated = DATED.exec(value);
  if (dated && isDate(value.slice(dated.index + dated[0].length))) value = value.slice(0, dated.index);
  // "Brian Stevens, Vice President, Google Cloud": a role after the first comma.
  const [name = '', ...titles] = value.split(/\s*,\s*/);
  if (titles.length > 0 && titles.some((part) => ROLE.test(part)) && !ROLE.test(name)) value = name;
  // "Noah Kulwin @nkulw": the name, then the handle.
  value = value.replace(/\s+@[\p{L}\p{N}_.]+$/u, '').replace(/\s*[,;:|]+$/, '');
  if (value === '' || isDate(value) || PLACEHOLDER.test(value)) return undefined;
  return value;
}

/** What a CMS writes where nobody is named. */
const PLACEHOLDER = /^(?:unknown|anonym(?:ous|e)?|an[oó]nimo|no author|n\/a|none|admin(?:istrator)?|super user|[-–—_.]+)$/i;

/** A role or desk alone, no person ("Editorial Staff", "News Desk", "Redaktion"): the author only where the page
 *  names nobody else. */
export const isDesk = (name: string): boolean =>
  ROLE.test(name) && name.split(/\s+/).every((word) => ROLE.test(word) || /^(?:the|and|&|of|news|web|online|blog)$/i.test(word));
