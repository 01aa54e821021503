import type { PageFacts } from './facts.ts';
import { parseJsonLd, type JsonLd } from './jsonld.ts';
import { resolveUrl, baseUrl } from './url.ts';

/** What every rule sees: the page facts plus lazily built helpers. */
export interface Context {
  readonly facts: PageFacts;
  /** The page's JSON-LD, parsed on first use. */
  jsonld(): JsonLd;
  /** An address written in the page → absolute http(s) URL against `<base href>` / the page URL. */
  resolve(raw: string | undefined): string | undefined;
}

/** One way of finding a field: one candidate, several in preference order, or nothing. */
export type Rule = (ctx: Context) => string | readonly string[] | undefined;

export interface FieldSpec {
  readonly rules: readonly Rule[];
  /** Candidates that are likely but not stated by the page: listed after the rules' ones, never the value. */
  readonly guesses?: readonly Rule[];
  /** A raw candidate → the field's value, or undefined when it is not acceptable. */
  accept(raw: string, ctx: Context): string | undefined;
  /** The chosen value, settled against the page's other candidates (e.g. a title's clean twin). */
  settle?(value: string, ctx: Context): string;
}

/** `compute` run once per page (per context), its result shared by every rule that asks. */
export function perPage<T>(compute: (ctx: Context) => T): (ctx: Context) => T {
  const results = new WeakMap<Context, T>();
  return (ctx) => {
    if (!results.has(ctx)) results.set(ctx, compute(ctx));
    return results.get(ctx) as T;
  };
}

export function asList(found: string | readonly string[] | undefined): readonly string[] {
  return typeof found === 'string' ? [found] : (found ?? []);
}

export function createContext(facts: PageFacts): Context {
  const base = baseUrl(facts.url, facts.baseHref);
  let ld: JsonLd | undefined;
  return {
    facts,
    jsonld: () => (ld ??= parseJsonLd(facts.jsonldBlocks)),
    resolve: (raw) => resolveUrl(raw, base),
  };
}

/** The first candidate any rule yields that the field accepts. A rule that throws yields nothing. */
export function firstValue(spec: FieldSpec, ctx: Context): string | null {
  for (const rule of spec.rules) {
    try {
      for (const raw of asList(rule(ctx))) {
        const value = spec.accept(raw, ctx);
        if (value !== undefined) return spec.settle ? spec.settle(value, ctx) : value;
      }
    } catch {
      // A broken rule must never fail the extraction; the next rule gets its chance.
    }
  }
  return null;
}

/** Every distinct accepted candidate of every rule, in rule order, then the guesses. */
export function allValues(spec: FieldSpec, ctx: Context): { found: string[]; guessed: string[] } {
  const found = collect(spec, spec.rules, ctx, new Set());
  const guessed = collect(spec, spec.guesses ?? [], ctx, new Set(found));
  return { found, guessed };
}

function collect(spec: FieldSpec, rules: readonly Rule[], ctx: Context, seen: Set<string>): string[] {
  const out: string[] = [];
  for (const rule of rules) {
    try {
      for (const raw of asList(rule(ctx))) {
        const value = spec.accept(raw, ctx);
        if (value !== undefined && !seen.has(value)) {
          seen.add(value);
          out.push(value);
        }
      }
    } catch {
      // As in firstValue.
    }
  }
  return out;
}
