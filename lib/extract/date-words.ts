/**
 * Dates as a language writes them ("5. Mai 2010", "le 7 mai 2020 - 12:38", "5 de mayo de 2010", "2019年10月16日",
 * "23.09.22"), read by chrono-node's strict parsers: formal dates only, never "today" or a weekday alone. The page's
 * language picks the parser, and so the order of an ambiguous numeric date (03/04/2010 is 3 April in a British or
 * French page, March 4 in an American one). Only a date that names its year, month and day is taken.
 */
import type { Chrono } from 'chrono-node';

/** chrono's parsers: ~100 ms of CPU to load, so not with the handler's import (loadDateParsers). */
let parsers: typeof import('./date-parsers.ts') | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads chrono's parsers once: started right after start-up (lib/app.ts `prepare`, functions/api.ts `afterInit`),
 * awaited by whatever extracts dates before its first extraction (the extract step, the rules' worker), so a request
 * that comes first waits on the same one load.
 */
export const loadDateParsers = (): Promise<void> =>
  (loading ??= import('./date-parsers.ts').then((loaded) => void (parsers = loaded)));

/** English tags whose readers write the month first; every other English writes the day first. */
const MONTH_FIRST_ENGLISH = new Set(['en', 'en-us', 'en-ph', 'en-ca']);

/**
 * Whether a page in `lang` (a language tag, as declared) writes numeric dates month first. A page that declares no
 * language keeps the US order the patterns always read `/` dates in.
 */
export const monthFirst = (lang: string | undefined): boolean =>
  lang === undefined || MONTH_FIRST_ENGLISH.has(lang.toLowerCase().replace('_', '-'));

function parserFor(lang: string | undefined): Chrono {
  // Loud: a caller that forgot loadDateParsers() would otherwise read fewer dates, silently.
  if (!parsers) throw new Error('The date parsers are not loaded: await loadDateParsers() before extracting.');
  const { en, BY_LANGUAGE, DAY_FIRST } = parsers;
  if (monthFirst(lang)) return en.strict;
  const primary = lang!.toLowerCase().split(/[-_]/)[0]!;
  return BY_LANGUAGE[primary] ?? (primary === 'en' ? en.GB : DAY_FIRST);
}

/**
 * chrono reads every position of its text with each of its patterns (about 2 ms for 200 characters): a byline or a
 * dateline states its date near its start, and what runs longer is not read.
 */
const MAX_WORDS_TEXT = 120;

export interface WordDate {
  year: number;
  month: number;
  day: number;
  /** Hour, minute and second when the text states a time. */
  time: [number, number, number] | undefined;
  /** Minutes east of UTC when the text states the zone. */
  offset: number | undefined;
}

/** The first full date in `text` (at most its first MAX_WORDS_TEXT characters), read in the page's language. */
export function wordDate(text: string, lang: string | undefined): WordDate | undefined {
  const head = text.slice(0, MAX_WORDS_TEXT);
  if (!/\d/.test(head)) return undefined;
  for (const { start, text: written } of parserFor(lang).parse(head, new Date(), { forwardDate: false })) {
    // "1 week ago" is certain of its year too, counted from today: a date a page states writes two numbers at least.
    if (!start.isCertain('year') || !start.isCertain('month') || !start.isCertain('day') || !/\d\D+\d/.test(written)) continue;
    // A date is written with one separator: "9.2/10" is a rating.
    if (/\d([./-])\d+(?!\1)[./-]\d/.test(written)) continue;
    return {
      year: start.get('year')!,
      month: start.get('month')!,
      day: start.get('day')!,
      time: start.isCertain('hour') ? [start.get('hour')!, start.get('minute') ?? 0, start.get('second') ?? 0] : undefined,
      offset: start.isCertain('timezoneOffset') ? (start.get('timezoneOffset') ?? undefined) : undefined,
    };
  }
  return undefined;
}
