/**
 * CSS selectors on the rules' DOM with css-select, the engine cheerio uses: the full syntax users write in a
 * browser (attribute operators, `:not()`, `:has()`, `:nth-child()`, combinators, comma lists). Compiled once per
 * selector string and reused across fields, matches and requests.
 */
import { compile, selectAll, selectOne } from 'css-select';
import type { AnyNode, Element } from 'domhandler';

type Query = ReturnType<typeof compile>;

const CACHE_SIZE = 500;
const compiled = new Map<string, Query>();

function query(selector: string): Query {
  let found = compiled.get(selector);
  if (!found) {
    found = compile(selector);
    if (compiled.size >= CACHE_SIZE) compiled.delete(compiled.keys().next().value as string);
    compiled.set(selector, found);
  }
  return found;
}

/** Why css-select refuses a selector, or undefined when it compiles. */
export function selectorError(selector: string): string | undefined {
  try {
    query(selector);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export const first = (selector: string, root: AnyNode): Element | null => selectOne<AnyNode, Element>(query(selector), root);

export function all(selector: string, root: AnyNode, limit: number): Element[] {
  return selectAll<AnyNode, Element>(query(selector), root).slice(0, limit);
}
