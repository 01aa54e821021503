/**
 * `data`: custom extraction rules in Microlink's MQL shape, as @microlink/mql flattens them
 * (`data.avatar.selector=img&data.avatar.attr=src&data.avatar.type=image`). A field is one rule or a list of
 * fallback rules (`data.avatar.0.selector`, `data.avatar.1.selector`); `attr` given as an object nests rules
 * (`data.stats.attr.followers.selector`). The whole set or a field may also be given as JSON, as Microlink takes it
 * (`data.title=[{"selector":"h1"},{"selector":"title"}]`): it becomes the key tree the dotted form builds, so both
 * meet the same checks and bounds. Everything is checked here, selectors included (css-select compiles
 * them), so a bad rule is an EINVALDATA naming it, never a failure later; the set is bounded (lib/rules/limits.ts).
 */
import { GlanceError, invalidParam } from '../errors.ts';
import { MAX_EVALUATE_CHARS, MAX_NESTING, MAX_RULES, MAX_SELECTOR_CHARS } from '../rules/limits.ts';
import { selectorError } from '../rules/select.ts';
import { DATA_TYPES, type DataRule, type DataRules, type DataType } from './options.ts';
import { child, join, list, scalar, type Found } from './read.ts';
import { LIMITS, POLLUTING, type QueryNode } from './tree.ts';

const RULE_KEYS = ['selector', 'selectorAll', 'attr', 'type', 'evaluate'];
const SNAKE_RULE_KEYS = ['selector_all'];

// Field names become keys of the response's `data`; a leading digit would read as a fallback index.
const FIELD_NAME = /^[A-Za-z_$][\w$-]*$/;
// An HTML attribute name, or one of the special values (`html`, `outerHTML`, `text`, `markdown`, `val`, ...).
const ATTR_NAME = /^[A-Za-z_:][-\w:.]*$/;
const ATTRS_ACCEPTED = 'an attribute name, or html, outerHTML, text, markdown, val, tagName, nodeName or json';

const invalid = (name: string, accepted: string) => invalidParam(name, accepted, 'EINVALDATA');

const isIndexed = (node: QueryNode): boolean =>
  node.children.size > 0 && [...node.children.keys()].every((key) => /^\d+$/.test(key));

/** What the whole rule set has used so far, against its bounds. */
interface Tally {
  rules: number;
}

function readTypes(found: Found): DataType[] {
  return list(found, false).map((item) => {
    const type = DATA_TYPES.find((known) => known === item.toLowerCase());
    if (!type) throw invalid(found.name, `one or more of ${DATA_TYPES.join(', ')}`);
    return type;
  });
}

function readSelectors(found: Found): string[] {
  const selectors = list(found, false).map((selector) => selector.trim());
  for (const selector of selectors) {
    if (selector === '') throw invalid(found.name, 'a CSS selector, not an empty string');
    if (selector.length > MAX_SELECTOR_CHARS) throw invalid(found.name, `a CSS selector of at most ${MAX_SELECTOR_CHARS} characters`);
    const error = selectorError(selector);
    if (error !== undefined) throw invalid(found.name, `a CSS selector; \`${selector}\` does not parse (${error})`);
  }
  return selectors;
}

function readEvaluate(found: Found): string {
  let source: string;
  try {
    source = scalar(found).trim();
  } catch {
    throw invalid(found.name, 'one JavaScript expression or function source');
  }
  if (source === '' || source.length > MAX_EVALUATE_CHARS) {
    throw invalid(found.name, `a JavaScript expression or function source of 1 to ${MAX_EVALUATE_CHARS} characters`);
  }
  return source;
}

function readRule({ node, name }: Found, tally: Tally, depth: number): DataRule {
  if (node.value !== undefined || node.children.size === 0) {
    throw invalid(name, `a rule given as ${name}.selector, ${name}.attr and ${name}.type`);
  }
  if (++tally.rules > MAX_RULES) throw invalid(name, `at most ${MAX_RULES} rules in one request, fallbacks and nested rules counted`);
  for (const key of node.children.keys()) {
    if (!RULE_KEYS.includes(key) && !SNAKE_RULE_KEYS.includes(key)) {
      throw invalid(join(name, key), `not a rule key; a rule takes ${RULE_KEYS.join(', ')}`);
    }
  }
  const selector = child(node, 'selector', name);
  const selectorAll = child(node, 'selectorAll', name);
  const attr = child(node, 'attr', name);
  const type = child(node, 'type', name);
  const evaluate = child(node, 'evaluate', name);
  if (selector && selectorAll) throw invalid(selectorAll.name, 'either `selector` or `selectorAll`, not both');
  if (evaluate && (selector || selectorAll || attr)) {
    throw invalid(evaluate.name, '`evaluate` on its own (with `type`): its result is the value, no selector or attr applies');
  }
  if (!selector && !selectorAll && !attr && !evaluate) throw invalid(name, 'a rule needs a selector, selectorAll, attr or evaluate');

  const nested = attr && attr.node.children.size > 0 && !isIndexed(attr.node);
  if (nested && attr.node.value !== undefined) throw invalid(attr.name, 'either an attribute name or nested rules, not both');
  if (nested && depth >= MAX_NESTING) throw invalid(attr.name, `rules nested at most ${MAX_NESTING} levels deep`);
  let attrs: string[] = [];
  if (attr && !nested) {
    attrs = list(attr, false);
    if (attrs.length === 0 || attrs.some((item) => !ATTR_NAME.test(item))) throw invalid(attr.name, ATTRS_ACCEPTED);
  }
  const selected = selector ?? selectorAll;
  return {
    selector: selected ? readSelectors(selected) : [],
    all: selectorAll !== undefined,
    // Microlink's default: a rule without `attr` answers the matched element's inner HTML.
    attr: nested || evaluate ? [] : attrs.length > 0 ? attrs : ['html'],
    rules: nested ? readRules(attr, tally, depth + 1) : undefined,
    type: type ? readTypes(type) : ['auto'],
    evaluate: evaluate ? readEvaluate(evaluate) : undefined,
  };
}

/** A JSON value as the key tree its dotted form would build: objects and arrays become sub-keys, the rest values. */
function toNode(value: unknown, name: string, depth: number): QueryNode {
  if (depth > LIMITS.depth) throw invalid(name, `JSON nested at most ${LIMITS.depth} levels deep`);
  if (value === null) throw invalid(name, 'a value, not null');
  if (typeof value !== 'object') return { value: String(value), children: new Map() };
  const entries = Array.isArray(value) ? value.map((item, i): [string, unknown] => [String(i), item]) : Object.entries(value);
  // A Map, not an object: a JSON key such as `__proto__` stays a key, refused below like any unknown one.
  return { value: undefined, children: new Map(entries.map(([key, item]) => [key, toNode(item, join(name, key), depth + 1)])) };
}

/** Rules given as one JSON value (a field's list or rule, or the whole set), else the node as it is. */
function unJson(found: Found): Found {
  const raw = found.node.value?.trim() ?? '';
  if (found.node.children.size > 0 || !/^[[{]/.test(raw)) return found;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalid(found.name, 'rules as dotted keys, or as JSON that parses (a rule object, or a list of them)');
  }
  return { node: toNode(value, found.name, 0), name: found.name };
}

function readField(given: Found, tally: Tally, depth: number): DataRule[] {
  const found = unJson(given);
  if (!isIndexed(found.node)) return [readRule(found, tally, depth)];
  return [...found.node.children.entries()]
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([index, node]) => readRule({ node, name: join(found.name, index) }, tally, depth));
}

function readRules({ node, name }: Found, tally: Tally, depth: number): DataRules {
  if (node.value !== undefined || node.children.size === 0) {
    throw invalid(name, `rules given as ${name}.<field>.selector, ${name}.<field>.attr, ${name}.<field>.type`);
  }
  // Object.fromEntries defines own properties, so no field name can reach a prototype.
  return Object.fromEntries(
    [...node.children.entries()].map(([field, sub]) => {
      const fieldName = join(name, field);
      if (!FIELD_NAME.test(field) || POLLUTING.has(field)) {
        throw invalid(fieldName, 'a field name of letters, digits, _, $ or -, not starting with a digit');
      }
      return [field, readField({ node: sub, name: fieldName }, tally, depth)];
    }),
  );
}

export function readData(root: QueryNode): DataRules | undefined {
  const found = child(root, 'data');
  if (!found) return undefined;
  try {
    return readRules(unJson(found), { rules: 0 }, 1);
  } catch (error) {
    // The shared readers (lists, scalars) speak of query parameters; under `data` it is a rule that is wrong.
    if (error instanceof GlanceError && error.code === 'EINVALQUERY') {
      throw new GlanceError('EINVALDATA', error.message, { data: error.data, cause: error });
    }
    throw error;
  }
}
