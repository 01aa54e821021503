/**
 * Custom `data` rules (Microlink's MQL rules, docs/CONTRACT.md §2, README "Custom data") evaluated on one page's
 * DOM. A field is a list of fallback rules; the first rule that yields a non-empty value valid for its type wins,
 * else the field is null. Inside a rule, selectors, then attrs, then types are tried in order the same way.
 * Media-typed values are checked by the `media` dependency (the ping), so a dead image falls through too.
 */
import type { AnyNode, Document } from 'domhandler';
import type { DataRule, DataRules, DataType } from '../query/options.ts';
import { readAttr, type Source } from './attr.ts';
import { MAX_MATCHES, MAX_OUTPUT_CHARS } from './limits.ts';
import { all, first } from './select.ts';
import { isEmpty, isMediaType, typed, type MediaType } from './types.ts';

export { buildDocument, DocumentBuilder, PARSER_OPTIONS } from './dom.ts';
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
}

/** Every field of `rules`, each present (null when no rule yields a value). */
export async function runRules(rules: DataRules, input: RulesInput, deps: RulesDeps): Promise<Record<string, unknown>> {
  const base = baseOf(input.document, input.url);
  const run: Run = {
    source: { document: input.document, base, body: input.body },
    evaluated: input.evaluated ?? new Map(),
    deps,
    allowance: MAX_OUTPUT_CHARS,
  };
  return fields(rules, input.document, run);
}

function baseOf(document: Document, url: string): string {
  const href = first('base[href]', document)?.attribs['href'];
  return (href && URL.parse(href, url)?.href) || url;
}

async function fields(rules: DataRules, scope: AnyNode, run: Run): Promise<Record<string, unknown>> {
  const entries = await Promise.all(
    Object.entries(rules).map(async ([name, fallbacks]) => [name, (await field(fallbacks, scope, run)) ?? null] as const),
  );
  return Object.fromEntries(entries);
}

async function field(fallbacks: readonly DataRule[], scope: AnyNode, run: Run): Promise<unknown> {
  for (const rule of fallbacks) {
    const value = await ruleValue(rule, scope, run);
    if (value !== undefined) return value;
  }
  return undefined;
}

async function ruleValue(rule: DataRule, scope: AnyNode, run: Run): Promise<unknown> {
  if (rule.evaluate !== undefined) return typedValue(run.evaluated.get(rule.evaluate), rule.type, run);
  if (rule.selector.length === 0) return matchValue(rule, scope, run);
  for (const selector of rule.selector) {
    if (rule.all) {
      const values = await Promise.all(all(selector, scope, MAX_MATCHES).map((match) => matchValue(rule, match, run)));
      const kept = values.filter((value) => value !== undefined);
      if (kept.length > 0) return kept;
    } else {
      const match = first(selector, scope);
      const value = match && (await matchValue(rule, match, run));
      if (value !== undefined && value !== null) return value;
    }
  }
  return undefined;
}

/** One match's value: its nested rules' object, or its first attr whose value passes one of the types. */
async function matchValue(rule: DataRule, node: AnyNode, run: Run): Promise<unknown> {
  if (rule.rules) {
    const object = await fields(rule.rules, node, run);
    return isEmpty(object) ? undefined : object;
  }
  for (const attr of rule.attr) {
    const value = await typedValue(readAttr(node, attr, run.source), rule.type, run);
    if (value !== undefined) return value;
  }
  return undefined;
}

async function typedValue(raw: unknown, types: readonly DataType[], run: Run): Promise<unknown> {
  for (const type of types) {
    let value = typed(raw, type, run.source.base);
    if (value === undefined) continue;
    if (isMediaType(type)) value = (await run.deps.media(type, value as string)) ?? undefined;
    if (value === undefined || !spend(run, value)) continue;
    return value;
  }
  return undefined;
}

/** Takes a value's size from the answer's allowance; false (and nothing taken) when it does not fit. */
function spend(run: Run, value: unknown): boolean {
  const size = typeof value === 'string' ? value.length : (JSON.stringify(value)?.length ?? 0);
  if (size > run.allowance) return false;
  run.allowance -= size;
  return true;
}
