/**
 * Author candidates made into a person's name, or refused: a byline's role ("Brian Stevens, Vice President"),
 * its date ("Jane Roe | March 3, 2024") or the site's name after it ("Jane Roe | Site"), a role or desk alone
 * ("Staff", "Redaktion").
 */
import { parseDate } from './date.ts';
import { normaliseText, textKey } from './text.ts';

/** Words of job titles and desks, in the languages of the corpora (whole words, case-insensitive). */
const ROLE =
  /\b(?:staff|editor(?:ial)?s?|reporter|writer|correspondent|contributor|columnist|president|director|manager|founder|ceo|cto|cfo|head|chief|senior|lead|engineer|producer|analyst|officer|professor|journalist|team|desk|admin(?:istrator)?|redaktion|redakteur(?:in)?|autor(?:in)?|rédaction|redacción|redazione|newsroom)\b/i;

/** Separators after which a byline carries something else (a date, a role, the site). */
const BYLINE_BREAK = /\s+[|•·—–]\s+|\s+-\s+/;

/** The name part of a byline, or undefined when nothing in it names a person. */
export function personName(raw: string, siteNames: ReadonlySet<string>): string | undefined {
  let value = normaliseText(raw);
  // "Jane Roe | March 3, 2024", "Jane Roe - Staff Writer": the first part is the name.
  const [first = '', ...rest] = value.split(BYLINE_BREAK);
  if (rest.length > 0 && rest.some((part) => parseDate(part) !== undefined || ROLE.test(part) || siteNames.has(textKey(part)))) {
    value = first;
  }
  // "Brian Stevens, Vice President, Google Cloud": a role after the first comma.
  const [name = '', ...titles] = value.split(/\s*,\s*/);
  if (titles.length > 0 && titles.some((part) => ROLE.test(part)) && !ROLE.test(name)) value = name;
  if (value === '' || parseDate(value) !== undefined) return undefined;
  // A role or desk alone is not a person ("Editorial Staff", "News Desk").
  if (ROLE.test(value) && value.split(/\s+/).every((word) => ROLE.test(word) || /^(?:the|and|&|of|news|web|online)$/i.test(word))) return undefined;
  return value;
}
