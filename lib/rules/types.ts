/**
 * `type` (https://microlink.io/docs/mql/data/type): a raw value → the typed value, or undefined when it is not of
 * that type, so the next type, attr, selector or fallback rule gets its turn. Meta types are normalised by the
 * default fields' own rules (lib/extract), so `type=author` answers what `data.author` would.
 */
import { isIP } from 'node:net';
import type { DataType } from './rule.ts';
import { parseDate } from '../extract/date.ts';
import { emptyFacts } from '../extract/facts.ts';
import { FIELD_SPECS } from '../extract/fields/index.ts';
import { normaliseLang } from '../extract/lang.ts';
import { createContext } from '../extract/rules.ts';
import { isMediaField, type MediaField, type MetaField } from '../data/fields.ts';
import { resolveUrl } from '../extract/url.ts';
import { parseJson } from '../json.ts';

/** The `type`s whose value is a media object, pinged like the default media fields. */
export type MediaType = MediaField;
export const isMediaType = (type: DataType): type is MediaType => isMediaField(type);

// A practical address check (WHATWG's `input type=email` pattern), not RFC 5322's full grammar.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
// `1,234`, `-3.5`, `1 234`, `12.345,67` are read in the page's own grouping: the last separator followed by
// one or two digits is the decimal mark.
const NUMBER = /[-+]?\d[\d,.\s\u00a0\u202f]*/;
const TRUE = new Set(['true', 'yes', 'on', '1']);
const FALSE = new Set(['false', 'no', 'off', '0']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Empty means no value: the next fallback is tried. */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (isPlainObject(value)) return Object.values(value).every(isEmpty);
  return typeof value === 'number' && !Number.isFinite(value);
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = NUMBER.exec(value);
  if (!match) return undefined;
  let digits = match[0].replace(/[\s\u00a0\u202f]/g, '').replace(/[,.]$/, '');
  const decimal = /[,.](\d{1,2})$/.exec(digits);
  const whole = decimal ? digits.slice(0, decimal.index) : digits;
  digits = whole.replace(/[,.]/g, '') + (decimal ? `.${decimal[1]}` : '');
  const number = Number(digits);
  return Number.isFinite(number) ? number : undefined;
}

function asBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : typeof value === 'number' ? String(value) : '';
  return TRUE.has(text) ? true : FALSE.has(text) ? false : undefined;
}

function asRegexp(value: string): string | undefined {
  const literal = /^\/(.+)\/([dgimsuyv]*)$/s.exec(value);
  try {
    if (literal) new RegExp(literal[1]!, literal[2]);
    else new RegExp(value);
    return value;
  } catch {
    return undefined;
  }
}

function asObject(value: unknown): Record<string, unknown> | unknown[] | undefined {
  if (isPlainObject(value) || Array.isArray(value)) return value;
  if (typeof value !== 'string') return undefined;
  const parsed = parseJson(value);
  return isPlainObject(parsed) || Array.isArray(parsed) ? parsed : undefined;
}

/** Runs the default field's acceptance (normalisation) on a value; these rules read nothing but the value. */
function asMeta(field: MetaField, value: string, url: string): string | undefined {
  return FIELD_SPECS[field].accept(value, createContext(emptyFacts(url)));
}

/**
 * The value as `type`, for every type but the media ones (which need a ping: see lib/rules/evaluate.ts, where
 * they are resolved here as URLs first). `base` resolves relative URLs.
 */
export function typed(value: unknown, type: DataType, base: string): unknown {
  let text: string | undefined;
  if (typeof value === 'string') {
    // isEmpty's test for a string, without trimming it twice.
    text = value.trim();
    if (text === '') return undefined;
  } else if (isEmpty(value)) {
    return undefined;
  } else if (typeof value === 'number' || typeof value === 'boolean') {
    text = String(value);
  }
  switch (type) {
    case 'auto':
      return typeof value === 'string' ? text : value;
    case 'string':
      return text;
    case 'number':
      return asNumber(value);
    case 'boolean':
      return asBoolean(value);
    case 'object':
      return asObject(value);
    case 'date':
      return typeof value === 'number' ? parseDate(value) : text && parseDate(text);
    case 'url':
    case 'image':
    case 'logo':
    case 'video':
    case 'audio':
      return text && resolveUrl(text, base);
    case 'email': {
      const address = text?.replace(/^mailto:/i, '').split('?', 1)[0];
      return address && EMAIL.test(address) ? address : undefined;
    }
    case 'ip':
      return text && isIP(text) !== 0 ? text : undefined;
    case 'lang':
      return text && normaliseLang(text);
    case 'regexp':
      return text && asRegexp(text);
    case 'title':
    case 'description':
    case 'author':
    case 'publisher':
      return text && asMeta(type, text, base);
  }
}
