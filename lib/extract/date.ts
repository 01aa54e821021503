/**
 * Dates as pages write them → ISO 8601 UTC. Only explicit patterns are recognised: V8's `Date.parse` accepts
 * nearly any text containing a number ("Version 2"), so it is never used on free text. The machine forms and
 * English are read by the patterns below; what they do not know, by the page language's parser (date-words.ts).
 */
import { monthFirst, wordDate } from './date-words.ts';

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
};

/** Zone abbreviations common in US and European news bylines, in minutes east of UTC. */
const ZONES: Readonly<Record<string, number>> = {
  z: 0, ut: 0, utc: 0, gmt: 0, wet: 0, bst: 60, cet: 60, cest: 120, eet: 120, eest: 180, msk: 180, ist: 330,
  sgt: 480, hkt: 480, jst: 540, kst: 540, aest: 600, aedt: 660, nzst: 720, nzdt: 780,
  est: -300, edt: -240, cst: -360, cdt: -300, mst: -420, mdt: -360, pst: -480, pdt: -420, et: -300, pt: -480,
};

const MIN_YEAR = 1971;
const MAX_YEAR = 2100;

const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)[a-z]*\\.?';
const ZONE = '(?:(z|[+-]\\d{2}(?::?\\d{2})?|(?:gmt|utc)\\s*[+-]\\d{1,2}(?::?\\d{2})?|[a-z]{1,4}t)(?![a-z/]))';
/** An optional time after a date: `T08:30`, `, 8:30:15.250 pm EDT`, ` at 8.30`, `@15:56:14 UTC`. */
const TIME =
  '(?:[\\sT,]*(?:at\\s+|@\\s*|-\\s*)?(\\d{1,2})[:.h](\\d{2})(?::(\\d{2})(?:[.,](\\d{1,9}))?)?' +
  `\\s*(?:([ap])\\.?m\\.?(?![a-z]))?\\s*${ZONE}?)?`;

/** Date shapes, most explicit first, each with how to read its groups. */
const PATTERNS: readonly [RegExp, (m: RegExpExecArray, lang: string | undefined) => Parts][] = [
  [
    new RegExp(`^(\\d{4})[-/.](\\d{1,2})[-/.](\\d{1,2})${TIME}`, 'i'),
    (m) => parts(m[1], m[2], m[3], m.slice(4), 0),
  ],
  [
    new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b${TIME}`, 'i'),
    (m) => parts(m[3], MONTHS[m[1]!.toLowerCase()], m[2], m.slice(4), 12),
  ],
  [
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})\\b${TIME}`, 'i'),
    (m) => parts(m[3], MONTHS[m[2]!.toLowerCase()], m[1], m.slice(4), 12),
  ],
  [
    new RegExp(`\\b(\\d{4})-(\\d{2})-(\\d{2})\\b${TIME}`, 'i'),
    (m) => parts(m[1], m[2], m[3], m.slice(4), 12),
  ],
  [
    new RegExp(`\\b(\\d{1,2})([/.])(\\d{1,2})\\2(\\d{4})\\b${TIME}`, 'i'),
    (m, lang) => {
      // `.` is the European day.month order; `/` is the US month/day order, and day/month wherever else it is written.
      const dayFirst = m[2] === '.' || Number(m[1]) > 12 || !monthFirst(lang);
      return parts(m[4], dayFirst ? m[3] : m[1], dayFirst ? m[1] : m[3], m.slice(5), 12);
    },
  ],
];

interface Parts {
  year: number;
  month: number;
  day: number;
  /** Groups: hour, minute, second, fraction, am/pm marker, zone. */
  time: readonly (string | undefined)[];
  /** A human-written date without a time names a calendar day: noon UTC keeps that day in nearly every zone. */
  dayOnlyHour: number;
}

export interface DateOptions {
  /**
   * Answer a time written with an offset in that offset (`2024-03-05T23:30:00.000-04:00`) rather than in UTC
   * (`2024-03-06T03:30:00.000Z`): the same instant, but the calendar day the page's readers saw. Date-only values
   * stay on their day either way (midnight or noon UTC).
   */
  readonly keepOffset?: boolean;
  /** The page's language tag as declared (`de`, `en-GB`): how it names months and orders a numeric date. */
  readonly lang?: string | undefined;
}

/**
 * How much of a value is searched for a date: a byline's text is captured up to 600 characters; a longer value (a
 * hostile `<meta content>` or JSON-LD string) is read no further, as each of the patterns would search it.
 */
const MAX_DATE_TEXT = 1000;

/** The value as the patterns read it. `Etc/GMT` is the tz database's spelling of GMT. */
const dateText = (value: string): string =>
  value.trimStart().slice(0, MAX_DATE_TEXT).replace(/\s+/g, ' ').replace(/\betc\//i, '').trim();

/** ISO 8601 (UTC unless `keepOffset`), or undefined for anything that is not clearly a date. */
export function parseDate(value: string | number, options: DateOptions = {}): string | undefined {
  if (typeof value === 'number') return fromEpoch(value);
  const text = dateText(value);
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return fromDigits(text);
  return fromText(text, options.keepOffset === true, options.lang);
}

/** The day and clock time a date-time is written with (`2020-07-09T07:26:05`), and whether it writes its zone;
 *  undefined for a date without a time and for epoch numbers. */
export function writtenTime(value: string): { local: string; zoned: boolean } | undefined {
  const text = dateText(value);
  if (/^\d+(\.\d+)?$/.test(text)) return undefined;
  for (const [pattern, read] of PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const found = read(match, undefined);
    if (found.time[0] === undefined) return undefined;
    const local = toIso({ ...found, time: [...found.time.slice(0, 5), undefined] });
    return local === undefined ? undefined : { local: local.slice(0, 19), zoned: found.time[5] !== undefined };
  }
  return undefined;
}

function fromDigits(text: string): string | undefined {
  if (text.length === 4) return toIso(parts(text, 1, '1', [], 0));
  if (text.length === 8 && /^(19|20)/.test(text)) {
    return toIso(parts(text.slice(0, 4), text.slice(4, 6), text.slice(6, 8), [], 0));
  }
  return fromEpoch(Number(text));
}

/** Seconds, milliseconds, microseconds or nanoseconds, told apart by magnitude. */
function fromEpoch(value: number): string | undefined {
  if (!Number.isFinite(value) || value <= 0) return undefined;
  let ms = value;
  if (value >= 1e17) ms = value / 1e6;
  else if (value >= 1e14) ms = value / 1e3;
  else if (value < 1e11) ms = value * 1000;
  return checked(new Date(Math.floor(ms)));
}

function fromText(text: string, keepOffset: boolean, lang: string | undefined): string | undefined {
  for (const [pattern, read] of PATTERNS) {
    const match = pattern.exec(text);
    if (match) return toIso(read(match, lang), keepOffset);
  }
  const words = wordDate(text, lang);
  if (words === undefined) return undefined;
  const { year, month, day, time, offset } = words;
  const clock = time === undefined ? [] : [...time.map(String), undefined, undefined, offset === undefined ? undefined : offsetText(offset)];
  return toIso({ year, month, day, time: clock, dayOnlyHour: 12 }, keepOffset);
}

function parts(
  year: string | undefined,
  month: string | number | undefined,
  day: string | undefined,
  time: Parts['time'],
  dayOnlyHour: number,
): Parts {
  return { year: Number(year), month: Number(month), day: Number(day), time, dayOnlyHour };
}

function toIso({ year, month, day, time, dayOnlyHour }: Parts, keepOffset = false): string | undefined {
  const [h, min, sec, fraction, meridiem, zone] = time;
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  let hour = h === undefined ? dayOnlyHour : Number(h);
  const minute = min === undefined ? 0 : Number(min);
  const second = sec === undefined ? 0 : Number(sec);
  if (meridiem) {
    if (hour > 12) return undefined;
    hour = (hour % 12) + (meridiem.toLowerCase() === 'p' ? 12 : 0);
  }
  if (hour > 24 || minute > 59 || second > 60) return undefined;
  const ms = fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000);
  const offset = zone === undefined ? 0 : zoneOffset(zone);
  if (offset === undefined) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset * 60_000);
  // Date.UTC rolls 31 February over into March: such a date was never a date.
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return undefined;
  const utc = checked(date);
  return utc !== undefined && keepOffset && offset !== 0 ? inOffset(date, offset) : utc;
}

/** `date` written in the zone `offset` minutes east of UTC: `2024-03-05T23:30:00.000-04:00`. */
function inOffset(date: Date, offset: number): string {
  return `${new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 23)}${offsetText(offset)}`;
}

/** `-04:00` for -240 minutes. */
function offsetText(offset: number): string {
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  return `${offset < 0 ? '-' : '+'}${hours}:${String(Math.abs(offset) % 60).padStart(2, '0')}`;
}

/** Minutes east of UTC; an unknown abbreviation is read as UTC rather than discarding the whole date. */
function zoneOffset(zone: string): number | undefined {
  const z = zone.toLowerCase().replace(/\s+/g, '');
  const numeric = /^(?:gmt|utc)?([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(z);
  if (numeric) {
    const minutes = Number(numeric[2]) * 60 + Number(numeric[3] ?? 0);
    if (minutes > 14 * 60) return undefined;
    return numeric[1] === '-' ? -minutes : minutes;
  }
  return ZONES[z] ?? 0;
}

function checked(date: Date): string | undefined {
  const time = date.getTime();
  if (Number.isNaN(time)) return undefined;
  const year = date.getUTCFullYear();
  return year < MIN_YEAR || year > MAX_YEAR ? undefined : date.toISOString();
}
