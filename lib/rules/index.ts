/**
 * Custom `data` rules (Microlink's MQL rules, docs/CONTRACT.md §2, docs/parameters.md "Custom data") evaluated on one page's
 * DOM. A field is a list of fallback rules; the first rule that yields a non-empty value valid for its type wins,
 * else the field is null. Inside a rule, selectors, then attrs, then types are tried in order the same way.
 * Media-typed values are checked by the `media` dependency (the ping), so a dead image falls through too.
 */
import type { AnyNode, Document } from 'domhandler';
import type { DataRule, DataRules, DataType } from './rule.ts';
import { readAttr, type Source } from './attr.ts';
import { MAX_MATCHES, MAX_OUTPUT_CHARS } from './limits.ts';
import { all, first } from './select.ts';
import { isEmpty, isMediaType, typed, type MediaType } from './types.ts';
import { RulesWork } from './work.ts';

export { buildDocument, PARSER_OPTIONS } from './dom.ts';
export { selectorError } from './select.ts';
export { SPECIAL_ATTRS } from './attr.ts';
export * from './limits.ts';

export interface RulesInput {
  readonly document: Document;
  /** The page's final URL. */
  readonly url: string;
  /** The body of a page that is not HTML, for `attr=json`. */
  readonly body?: string | undefined;
  /** Results of the rules' `evaluate` sources, by source, as the rendered page answered them. */
  readonly evaluated?: ReadonlyMap<string, unknown> | undefined;
}

export interface RulesDeps {
  /** A media URL → its media object once checked (pinged and enriched, or shaped raw), or null when dead. */
  media(type: MediaType, url: string): Promise<unknown>;
}

interface Run {
  readonly source: Source;
  readonly evaluated: ReadonlyMap<string, unknown>;
  readonly deps: RulesDeps;
  /** Characters of output still allowed. */
  allowance: number;
  /** Selector steps and value work still allowed (lib/rules/work.ts). */
  readonly work: RulesWork;
}

/** Every field of `rules`, each present (null when no rule yields a value). */
export async function runRules(rules: DataRules, input: RulesInput, deps: RulesDeps): Promise<Record<string, unknown>> {
  const base = baseOf(input.document, input.url);
  const run: Run = {
    source: { document: input.document, base, body: input.body },
    evaluated: input.evaluated ?? new Map(),
    deps,
    allowance: MAX_OUTPUT_CHARS,
    work: new RulesWork(rules, input.document),
  };
  return fields(rules, input.document, run);
}

function baseOf(document: Document, url: string): string {
  const href = first('base[href]', document)?.attribs['href'];
  return (href && URL.parse(href, url)?.href) || url;
}

/**
 * Rules are evaluated synchronously, and a value becomes a promise only where a media check waits on the network:
 * a `selectorAll` rule has up to MAX_MATCHES matches, and a promise and a microtask turn for each match, attr and
 * type was most of what evaluating the rules of a request cost (issue 12). Fields, and the matches of a
 * `selectorAll`, still wait on their media checks concurrently.
 */
type OrPromise<T> = T | Promise<T>;

/** `next(value)`, once `value` has settled when it is a promise. */
function after<T, U>(value: OrPromise<T>, next: (value: T) => OrPromise<U>): OrPromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** The first value `valueOf` gives for `items`, tried in order, that is not undefined. */
function firstOf<T>(items: readonly T[], valueOf: (item: T) => OrPromise<unknown>, from = 0): OrPromise<unknown> {
  for (let i = from; i < items.length; i++) {
    const value = valueOf(items[i]!);
    if (value instanceof Promise) return value.then((found) => (found === undefined ? firstOf(items, valueOf, i + 1) : found));
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * `values`, once every promise among them has settled (together). A failure (a selector over its allowance) is
 * thrown only once the others have settled too: nothing of the rules' goes on after their answer.
 */
function settled(values: OrPromise<unknown>[]): OrPromise<unknown[]> {
  if (!values.some((value) => value instanceof Promise)) return values;
  return Promise.allSettled(values).then((results) =>
    results.map((result) => {
      if (result.status === 'rejected') throw result.reason;
      return result.value;
    }),
  );
}

function fields(rules: DataRules, scope: AnyNode, run: Run): OrPromise<Record<string, unknown>> {
  if (isPlainRules(rules)) return plainFields(rules, scope, run);
  const names = Object.keys(rules);
  const values = settled(names.map((name) => firstOf(rules[name]!, (rule) => ruleValue(rule, scope, run))));
  return after(values, (found) => Object.fromEntries(names.map((name, i) => [name, found[i] ?? null])));
}

function ruleValue(rule: DataRule, scope: AnyNode, run: Run): OrPromise<unknown> {
  if (isPlain(rule)) return plainRuleValue(rule, scope, run);
  if (rule.evaluate !== undefined) return typedValue(run.evaluated.get(rule.evaluate), rule.type, run);
  if (rule.selector.length === 0) return matchValue(rule, scope, run);
  return firstOf(rule.selector, (selector) => {
    if (!rule.all) {
      const match = first(selector, scope, run.work.steps(rule));
      return match ? matchValue(rule, match, run) : undefined;
    }
    const values = settled(all(selector, scope, MAX_MATCHES, run.work.steps(rule)).map((match) => matchValue(rule, match, run)));
    return after(values, (found) => {
      const kept = found.filter((value) => value !== undefined);
      return kept.length > 0 ? kept : undefined;
    });
  });
}

/** One match's value: its nested rules' object, or its first attr whose value passes one of the types. */
function matchValue(rule: DataRule, node: AnyNode, run: Run): OrPromise<unknown> {
  if (rule.rules) return after(fields(rule.rules, node, run), (object) => (isEmpty(object) ? undefined : object));
  return firstOf(rule.attr, (attr) => (run.work.mayRead(attr, node, run.allowance) ? typedValue(readAttr(node, attr, run.source), rule.type, run) : undefined));
}

function typedValue(raw: unknown, types: readonly DataType[], run: Run): OrPromise<unknown> {
  return firstOf(types, (type) => {
    const value = typed(raw, type, run.source.base);
    if (value === undefined) return undefined;
    if (!isMediaType(type)) return spent(run, value);
    return run.deps.media(type, value as string).then((checked) => (checked === undefined || checked === null ? undefined : spent(run, checked)));
  });
}

/**
 * A rule that waits on no media check, nor do its nested rules, is evaluated by plain loops: the same steps in the
 * same order as the general functions above (so the same output allowance is spent on the same values), without
 * their callbacks and intermediate lists per match, attr and type, which were most of what evaluating a 1000-match
 * `selectorAll` cost once the links were resolved without parsing (issue 12).
 */
const plainness = new WeakMap<DataRule, boolean>();

function isPlain(rule: DataRule): boolean {
  let plain = plainness.get(rule);
  if (plain === undefined) {
    plain = !rule.type.some(isMediaType) && (rule.rules === undefined || isPlainRules(rule.rules));
    plainness.set(rule, plain);
  }
  return plain;
}

const isPlainRules = (rules: DataRules): boolean => Object.values(rules).every((fallbacks) => fallbacks.every(isPlain));

function plainFields(rules: DataRules, scope: AnyNode, run: Run): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const name of Object.keys(rules)) {
    let found: unknown;
    for (const rule of rules[name]!) {
      found = plainRuleValue(rule, scope, run);
      if (found !== undefined) break;
    }
    object[name] = found ?? null;
  }
  return object;
}

function plainRuleValue(rule: DataRule, scope: AnyNode, run: Run): unknown {
  if (rule.evaluate !== undefined) return plainTyped(run.evaluated.get(rule.evaluate), rule.type, run);
  if (rule.selector.length === 0) return plainMatchValue(rule, scope, run);
  for (const selector of rule.selector) {
    if (!rule.all) {
      const match = first(selector, scope, run.work.steps(rule));
      const value = match ? plainMatchValue(rule, match, run) : undefined;
      if (value !== undefined) return value;
      continue;
    }
    const kept: unknown[] = [];
    for (const match of all(selector, scope, MAX_MATCHES, run.work.steps(rule))) {
      const value = plainMatchValue(rule, match, run);
      if (value !== undefined) kept.push(value);
    }
    if (kept.length > 0) return kept;
  }
  return undefined;
}

function plainMatchValue(rule: DataRule, node: AnyNode, run: Run): unknown {
  if (rule.rules) {
    const object = plainFields(rule.rules, node, run);
    return isEmpty(object) ? undefined : object;
  }
  for (const attr of rule.attr) {
    if (!run.work.mayRead(attr, node, run.allowance)) continue;
    const value = plainTyped(readAttr(node, attr, run.source), rule.type, run);
    if (value !== undefined) return value;
  }
  return undefined;
}

function plainTyped(raw: unknown, types: readonly DataType[], run: Run): unknown {
  for (const type of types) {
    const value = typed(raw, type, run.source.base);
    const kept = value === undefined ? undefined : spent(run, value);
    if (kept !== undefined) return kept;
  }
  return undefined;
}

/** The value, its size taken from the answer's allowance; undefined (and nothing taken) when it does not fit. */
function spent(run: Run, value: unknown): unknown {
  const size = typeof value === 'string' ? value.length : (JSON.stringify(value)?.length ?? 0);
  if (size > run.allowance) return undefined;
  run.allowance -= size;
  return value;
}
