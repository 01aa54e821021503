/**
 * CSS selectors on the rules' DOM with css-select, the engine cheerio uses: the full syntax users write in a
 * browser (attribute operators, `:not()`, `:has()`, `:nth-child()`, combinators, comma lists). Compiled once per
 * selector string and reused across fields, matches and requests.
 *
 * From the document, css-select would walk every node of the page for each selector (ten rules: ten walks, most
 * of a rule's cost on a large page). Instead a selector whose every alternative names its subject's tag (`a`,
 * `h2, h3`, `meta[property="og:title"]`, `article p`) is tested only on the page's elements of those tags, any
 * other on the list of all its elements (lib/rules/elements.ts), in the order css-select would visit them. The
 * compiled css-select query still decides every match, so the answer is the same; only a selector of bare tag
 * names (`a`, `h2, h3`) needs no test, its candidates being its matches.
 */
import { compile, selectAll, selectOne } from 'css-select';
import { isTraversal, parse, SelectorType, type Selector } from 'css-what';
import { isDocument, isTag, type AnyNode, type Document, type Element } from 'domhandler';
import * as DomUtils from 'domutils';
import { elementIndex } from './elements.ts';
import type { StepMeter } from './work.ts';

/** Steps the running query may still take (lib/rules/work.ts); unbounded for queries of our own. */
let stepsLeft = Infinity;

/** Thrown through css-select when a query runs out of steps, and turned into its rule's error by `metered`. */
class OutOfSteps extends Error {}

function step(count = 1): void {
  stepsLeft -= count;
  if (stepsLeft < 0) throw new OutOfSteps();
}

const counted =
  <A extends unknown[], R>(fn: (...args: A) => R) =>
  (...args: A): R => {
    step();
    return fn(...args);
  };

/**
 * css-select's own adapter (domutils), each call it makes counted as a step: css-select reaches the DOM only through
 * it, a node of a search included (its searches test every node with isTag). A text it reads costs its length. An
 * element's name is read in lower case, as selectors' tag names are: htmlparser2 gives SVG's elements their
 * mixed-case names (`linearGradient`, `foreignObject`), which a browser's `linearGradient` and `lineargradient`
 * selectors both match, and css-select's default compared them with neither.
 */
const adapter = {
  ...DomUtils,
  isTag: (node: AnyNode): node is Element => {
    step();
    return isTag(node);
  },
  getName: (element: Element): string => {
    step();
    return element.name.toLowerCase();
  },
  getAttributeValue: counted(DomUtils.getAttributeValue),
  hasAttrib: counted(DomUtils.hasAttrib),
  getChildren: counted(DomUtils.getChildren),
  getParent: counted(DomUtils.getParent),
  getSiblings: counted(DomUtils.getSiblings),
  prevElementSibling: counted(DomUtils.prevElementSibling),
  removeSubsets: (nodes: AnyNode[]): AnyNode[] => {
    step(nodes.length);
    return DomUtils.removeSubsets(nodes);
  },
  getText: (node: AnyNode): string => {
    const text = DomUtils.getText(node);
    step(text.length);
    return text;
  },
};

/** `query()` counted against `meter` when there is one: past its steps, the meter's error. */
function metered<T>(selector: string, meter: StepMeter | undefined, query: () => T): T {
  if (!meter) return query();
  stepsLeft = meter.left;
  try {
    return query();
  } finally {
    // Spent before any error is made: the error names the allowance that ran out.
    meter.spend(meter.left - Math.max(0, stepsLeft));
    const exhausted = stepsLeft < 0;
    stepsLeft = Infinity;
    if (exhausted) throw meter.exhausted(selector);
  }
}

interface Compiled {
  readonly query: ReturnType<typeof compile<AnyNode, Element>>;
  /** The tag names a match can have; undefined when any element can match. */
  readonly tags: readonly string[] | undefined;
  /** Every alternative is a bare tag name (`a`, `h2, h3`): every element of those tags matches. */
  readonly tagsOnly: boolean;
}

const CACHE_SIZE = 500;
const compiled = new Map<string, Compiled>();

/** The tag an alternative's subject (its last compound) must have; undefined when it names none. */
function subjectTag(alternative: readonly Selector[]): string | undefined {
  let tag: string | undefined;
  for (const token of alternative) {
    if (isTraversal(token)) tag = undefined;
    else if (token.type === SelectorType.Tag && token.namespace === null) tag = token.name.toLowerCase();
  }
  return tag;
}

function subjectTags(alternatives: readonly (readonly Selector[])[]): string[] | undefined {
  const tags = new Set<string>();
  for (const alternative of alternatives) {
    const tag = subjectTag(alternative);
    if (tag === undefined) return undefined;
    tags.add(tag);
  }
  return [...tags];
}

const isBareTag = (alternative: readonly Selector[]): boolean =>
  alternative.length === 1 && alternative[0]!.type === SelectorType.Tag && alternative[0]!.namespace === null;

function compiledQuery(selector: string): Compiled {
  let found = compiled.get(selector);
  if (!found) {
    const query = compile(selector, { adapter });
    const alternatives = parse(selector);
    found = { query, tags: subjectTags(alternatives), tagsOnly: alternatives.every(isBareTag) };
    if (compiled.size >= CACHE_SIZE) compiled.delete(compiled.keys().next().value as string);
    compiled.set(selector, found);
  }
  return found;
}

/** The elements of `document` a query must test, in document order. */
function candidates(document: Document, tags: readonly string[] | undefined): readonly Element[] {
  const index = elementIndex(document);
  return tags === undefined ? index.elements : index.withTags(tags);
}

/** Why css-select refuses a selector, or undefined when it compiles. */
export function selectorError(selector: string): string | undefined {
  try {
    compiledQuery(selector);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export function first(selector: string, root: AnyNode, meter?: StepMeter): Element | null {
  const { query, tags, tagsOnly } = compiledQuery(selector);
  return metered(selector, meter, () => {
    if (!isDocument(root)) return selectOne<AnyNode, Element>(query, root, { adapter });
    const elements = candidates(root, tags);
    if (tagsOnly) return elements[0] ?? null;
    for (const element of elements) {
      step();
      if (query(element)) return element;
    }
    return null;
  });
}

export function all(selector: string, root: AnyNode, limit: number, meter?: StepMeter): Element[] {
  const { query, tags, tagsOnly } = compiledQuery(selector);
  return metered(selector, meter, () => {
    if (!isDocument(root)) return selectAll<AnyNode, Element>(query, root, { adapter }).slice(0, limit);
    if (tagsOnly) return candidates(root, tags).slice(0, limit);
    const found: Element[] = [];
    for (const element of candidates(root, tags)) {
      step();
      if (!query(element)) continue;
      found.push(element);
      if (found.length >= limit) break;
    }
    return found;
  });
}
