/**
 * Small readers from a QueryNode to one typed value. Each takes the dotted camelCase name the caller's key
 * maps to, so every error names the parameter as the contract spells it (`screenshot.fullPage`, even when sent
 * as `screenshot.full_page`).
 */
import { invalidParam, type GlanceError } from '../errors.ts';
import type { QueryNode } from './tree.ts';

/**
 * node:util without its ES import: that reads every export, and its lazy ones load worker_threads, parseArgs and
 * diff's modules (~9 ms of CPU at a cold start; bench/RESULTS.md, cold start).
 */
const util = () => process.getBuiltinModule('node:util');

/** A node found under a parent, with its full dotted name. */
export interface Found {
  readonly node: QueryNode;
  readonly name: string;
}

export const join = (parent: string, key: string): string => (parent === '' ? key : `${parent}.${key}`);

const snakeOf = (camel: string): string => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camelOf = (snake: string): string => snake.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The child `key` (camelCase) of `parent`, also found by its snake_case spelling. */
export function child(parent: QueryNode, key: string, parentName = ''): Found | undefined {
  const name = join(parentName, key);
  const camel = parent.children.get(key);
  const snakeKey = snakeOf(key);
  const snake = snakeKey === key ? undefined : parent.children.get(snakeKey);
  if (camel && snake) {
    throw invalidParam(name, `it was given twice (as \`${key}\` and \`${snakeKey}\`); give it once`);
  }
  const node = camel ?? snake;
  return node ? { node, name } : undefined;
}

/**
 * Refuses a sub-key the object parameter does not take (`screenshot.palete`): a misspelt or unknown option must be
 * named, never accepted and ignored. `known` in camelCase; their snake_case spellings pass too.
 */
export function onlyKeys({ node, name }: Found, known: readonly string[], refusal?: (camelKey: string, path: string) => GlanceError | undefined): void {
  for (const key of node.children.keys()) {
    if (known.includes(key) || known.some((option) => snakeOf(option) === key)) continue;
    // A key that names something refused on purpose says why, rather than that it is unknown.
    throw refusal?.(camelOf(key), join(name, key)) ?? invalidParam(join(name, key), `not an option of \`${name}\`; its options are ${known.join(', ')}`);
  }
}

/**
 * One option of a feature, read from `<feature>.<key>` and from Microlink's legacy top-level `<key>`
 * (`&pdf&scale=1`): the legacy key applies only while the feature is on, and given both ways with different
 * values the request is refused.
 */
export function legacyOption<T>(root: QueryNode, feature: Found, key: string, read: (found: Found) => T): T | undefined {
  const nested = child(feature.node, key, feature.name);
  const legacy = child(root, key);
  const a = nested && read(nested);
  const b = legacy && read(legacy);
  if (nested && legacy && !util().isDeepStrictEqual(a, b)) {
    throw invalidParam(nested.name, `it disagrees with \`${legacy.name}\`; give it once`);
  }
  return nested ? a : b;
}

/** The single value of a key that takes no sub-keys. */
export function scalar({ node, name }: Found): string {
  if (node.children.size > 0 || node.value === undefined) {
    throw invalidParam(name, 'it takes a single value, not sub-keys');
  }
  return node.value;
}

export function parseBoolean(text: string): boolean | undefined {
  if (text === '') return true;
  const lower = text.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
}

export function flag(found: Found): boolean {
  const value = parseBoolean(scalar(found));
  if (value === undefined) throw invalidParam(found.name, 'true or false');
  return value;
}

export const flagOf = (parent: QueryNode, key: string, fallback: boolean, parentName = ''): boolean => {
  const found = child(parent, key, parentName);
  return found ? flag(found) : fallback;
};

/** A non-empty string, trimmed. */
export function text(found: Found, what = 'a non-empty string'): string {
  const value = scalar(found).trim();
  if (value === '') throw invalidParam(found.name, what);
  return value;
}

export function oneOf<T extends string>(found: Found, values: readonly T[], aliases: Record<string, T> = {}): T {
  const given = scalar(found).trim().toLowerCase();
  // hasOwn: a value such as `constructor` must not find Object.prototype's member.
  const alias = Object.hasOwn(aliases, given) ? aliases[given] : undefined;
  const value = values.find((v) => v.toLowerCase() === given) ?? alias;
  if (value === undefined) throw invalidParam(found.name, `one of ${values.join(', ')}`);
  return value;
}

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)$/;

export function numberIn(found: Found, min: number, max: number, integer = false): number {
  const raw = scalar(found).trim();
  const value = Number(raw);
  if (!NUMBER.test(raw) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw invalidParam(found.name, `${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  }
  return value;
}

/**
 * The items of a list-valued key: `key.0=a&key.1=b` (ordered by index), or one value that is split on commas
 * when `split` is set (never for selectors and code, where commas are part of the value). Items are trimmed;
 * empty ones are refused.
 */
export function list({ node, name }: Found, split: boolean): string[] {
  let items: Array<{ value: string; name: string }>;
  if (node.children.size > 0) {
    if (node.value !== undefined) throw invalidParam(name, 'either one value or indexed items, not both');
    const entries = [...node.children.entries()];
    if (!entries.every(([key]) => /^\d+$/.test(key))) {
      throw invalidParam(name, `a value or a list given as ${name}.0, ${name}.1, …`);
    }
    items = entries
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([key, item]) => ({ value: scalar({ node: item, name: join(name, key) }), name: join(name, key) }));
  } else {
    const value = node.value ?? '';
    // A stray comma (`filter=title,`) is forgiven; an empty list is not.
    const parts = split ? value.split(',').filter((part) => part.trim() !== '') : [value];
    items = (parts.length > 0 ? parts : ['']).map((part) => ({ value: part, name }));
  }
  return items.map((item) => {
    const value = item.value.trim();
    if (value === '') throw invalidParam(item.name, 'a non-empty value');
    return value;
  });
}

/**
 * A feature given as a boolean or as an object (`screenshot`, `pdf`, `ping`, `iframe`, `meta`): false when
 * off, else the node whose sub-keys hold its options. Sub-keys alone turn it on; an explicit `false` beside
 * sub-keys is a contradiction.
 */
export function feature(found: Found | undefined, fallback: boolean): false | QueryNode {
  if (!found) return fallback ? { value: undefined, children: new Map() } : false;
  const { node, name } = found;
  if (node.value === undefined) return node;
  const on = parseBoolean(node.value);
  if (on === undefined) throw invalidParam(name, `true, false, or sub-keys such as ${name}.<option>`);
  if (!on && node.children.size > 0) {
    const sub = [...node.children.keys()][0] ?? '';
    throw invalidParam(name, `\`${name}=false\` contradicts \`${join(name, sub)}\`; give one or the other`);
  }
  return on ? node : false;
}
