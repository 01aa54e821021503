/**
 * The work one request's rules may do (docs/parameters.md "Custom data" → Limits), so that a page and a rule set a stranger chose
 * cost a bounded amount of CPU before the worker's deadline (lib/work/) ever has to stop them.
 *
 * - Selectors: every step css-select takes (an element's name, attribute, parent, siblings or children, a node of a
 *   search) is counted (lib/rules/select.ts), per rule and per request. `p:nth-last-child(n)` over 20 000 siblings
 *   takes hundreds of millions of steps, quadratic in the page; ten rules of every kind over the corpus took at most
 *   663 000 for a rule and 794 000 for the request (bench/RESULTS.md, issue 24). A rule past either allowance is
 *   EINVALDATA naming it: there is no partial answer to a selector that did not finish.
 * - Values: reading `text`, `html`, `outerHTML`, `markdown` or `json` at a node costs the size of its subtree
 *   (lib/rules/sizes.ts) times what that reading costs per character, taken from the request's allowance before the
 *   value is built; past it the value is dropped as if empty, as past the output allowance. A value whose visible
 *   text alone would not fit what is left of the output allowance is not built either. A `selectorAll` over nested
 *   elements asked for their Markdown (each subtree holding the next) built values quadratic in the page.
 */
import type { AnyNode, Document } from 'domhandler';
import { GlanceError } from '../errors.ts';
import type { DataRule, DataRules } from './rule.ts';
import { Sizes } from './sizes.ts';

/** css-select steps one rule may take, all its selectors, matches and nested rules counted. */
export const MAX_RULE_STEPS = 5_000_000;
/** css-select steps all rules of one request may take. */
export const MAX_REQUEST_STEPS = 20_000_000;
/** Characters of subtree one request's values may read, weighted by VALUE_COST. */
export const MAX_VALUE_WORK = 40_000_000;

/**
 * What reading a value costs per character of the subtree, relative to collecting its text: Markdown serialises the
 * subtree and converts it (Wikipedia's 0.92 MB in about 60 ms, bench/rules.ts: some 65 ns a character), HTML
 * serialises it.
 */
const VALUE_COST: Readonly<Record<string, number>> = { text: 1, json: 1, html: 2, outerHTML: 2, markdown: 6 };
/** Values whose output holds at least the subtree's visible text. */
const HOLDS_TEXT = new Set(['text', 'html', 'outerHTML']);

/** What css-select's steps are counted against while one query runs (lib/rules/select.ts). */
export interface StepMeter {
  /** Steps the query may take. */
  readonly left: number;
  spend(steps: number): void;
  /** The query ran out of steps: the error to answer. */
  exhausted(selector: string): GlanceError;
}

export class RulesWork {
  #requestSteps = MAX_REQUEST_STEPS;
  readonly #ruleSteps = new Map<DataRule, number>();
  #valueWork = MAX_VALUE_WORK;
  readonly #paths: ReadonlyMap<DataRule, string>;
  readonly #document: Document;
  #sizes: Sizes | undefined;

  constructor(rules: DataRules, document: Document) {
    this.#paths = pathsOf(rules);
    this.#document = document;
  }

  /** The meter for a query of `rule`'s. */
  steps(rule: DataRule): StepMeter {
    const ruleLeft = this.#ruleSteps.get(rule) ?? MAX_RULE_STEPS;
    return {
      left: Math.min(ruleLeft, this.#requestSteps),
      spend: (steps) => {
        this.#requestSteps -= steps;
        this.#ruleSteps.set(rule, ruleLeft - steps);
      },
      exhausted: (selector) => {
        const path = this.#paths.get(rule) ?? 'data';
        const which = this.#requestSteps <= 0 ? `the request's ${MAX_REQUEST_STEPS.toLocaleString('en')}` : `a rule's ${MAX_RULE_STEPS.toLocaleString('en')}`;
        return new GlanceError(
          'EINVALDATA',
          `The rule \`${path}\` needs more work on this page than ${which} selector steps allow (its selector \`${selector}\` costs more than linear ` +
            'time here): use a narrower selector.',
          { data: { [path]: `the selector "${selector}" needs more selector steps than allowed on this page` } },
        );
      },
    };
  }

  /**
   * Whether `attr` may be read at `node` with `outputLeft` characters of output still allowed; if so, its cost is
   * taken now. Attributes and the other special values cost nothing worth counting.
   */
  mayRead(attr: string, node: AnyNode, outputLeft: number): boolean {
    const perChar = VALUE_COST[attr];
    if (perChar === undefined) return true;
    const sizes = (this.#sizes ??= new Sizes(this.#document));
    if (HOLDS_TEXT.has(attr) && sizes.visible(node) > outputLeft) return false;
    const cost = perChar * sizes.size(node);
    if (cost > this.#valueWork) return false;
    this.#valueWork -= cost;
    return true;
  }
}

/** Each rule's name for messages: `data.<field>`, and `.<name>` for each level of nested rules. */
function pathsOf(rules: DataRules, prefix = 'data', paths = new Map<DataRule, string>()): Map<DataRule, string> {
  for (const [name, fallbacks] of Object.entries(rules)) {
    for (const rule of fallbacks) {
      paths.set(rule, `${prefix}.${name}`);
      if (rule.rules) pathsOf(rule.rules, `${prefix}.${name}`, paths);
    }
  }
  return paths;
}
