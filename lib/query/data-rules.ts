/**
 * `data`: custom extraction rules in Microlink's MQL shape, as @microlink/mql flattens them
 * (`data.avatar.selector=img&data.avatar.attr=src&data.avatar.type=image`). A field is one rule or a list of
 * fallback rules (`data.avatar.0.selector`, `data.avatar.1.selector`); `attr` given as an object nests rules
 * (`data.stats.attr.followers.selector`). Only the structure is checked here; selectors are the browser's or
 * the parser's to judge.
 */
import { invalidParam } from '../errors.ts';
import { DATA_TYPES, type DataRule, type DataRules, type DataType } from './options.ts';
import { child, join, list, type Found } from './read.ts';
import type { QueryNode } from './tree.ts';

const RULE_KEYS = ['selector', 'selectorAll', 'attr', 'type'];
const SNAKE_RULE_KEYS = ['selector_all'];

// Field names become keys of the response's `data`; a leading digit would read as a fallback index.
const FIELD_NAME = /^[A-Za-z_$][\w$-]*$/;
// An HTML attribute name, or one of the pseudo-attributes (`html`, `outerHTML`, `text`, `markdown`, `val`).
const ATTR_NAME = /^[A-Za-z_:][-\w:.]*$/;

const isIndexed = (node: QueryNode): boolean =>
  node.children.size > 0 && [...node.children.keys()].every((key) => /^\d+$/.test(key));

function readTypes(found: Found): DataType[] {
  return list(found, false).map((item) => {
    const type = DATA_TYPES.find((known) => known === item.toLowerCase());
    if (!type) throw invalidParam(found.name, `one or more of ${DATA_TYPES.join(', ')}`);
    return type;
  });
}

function readRule({ node, name }: Found): DataRule {
  if (node.value !== undefined || node.children.size === 0) {
    throw invalidParam(name, `a rule given as ${name}.selector, ${name}.attr and ${name}.type`);
  }
  for (const key of node.children.keys()) {
    if (!RULE_KEYS.includes(key) && !SNAKE_RULE_KEYS.includes(key)) {
      throw invalidParam(join(name, key), `not a rule key; a rule takes ${RULE_KEYS.join(', ')}`);
    }
  }
  const selector = child(node, 'selector', name);
  const selectorAll = child(node, 'selectorAll', name);
  const attr = child(node, 'attr', name);
  const type = child(node, 'type', name);
  if (selector && selectorAll) throw invalidParam(selectorAll.name, `either \`selector\` or \`selectorAll\`, not both`);
  if (!selector && !selectorAll && !attr) throw invalidParam(name, 'a rule needs a selector, selectorAll or attr');

  const nested = attr && attr.node.children.size > 0 && !isIndexed(attr.node);
  if (nested && attr.node.value !== undefined) {
    throw invalidParam(attr.name, 'either an attribute name or nested rules, not both');
  }
  let attrs: string[] = [];
  if (attr && !nested) {
    attrs = list(attr, false);
    const bad = attrs.find((item) => !ATTR_NAME.test(item));
    if (bad !== undefined) {
      throw invalidParam(attr.name, 'an attribute name, or html, outerHTML, text, markdown or val');
    }
  }
  const selected = selector ?? selectorAll;
  return {
    selector: selected ? list(selected, false) : [],
    all: selectorAll !== undefined,
    // Microlink's default: a rule without `attr` answers the matched element's inner HTML.
    attr: nested ? [] : attrs.length > 0 ? attrs : ['html'],
    rules: nested ? readRules(attr) : undefined,
    type: type ? readTypes(type) : ['auto'],
  };
}

function readField(found: Found): DataRule[] {
  if (!isIndexed(found.node)) return [readRule(found)];
  return [...found.node.children.entries()]
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([index, node]) => readRule({ node, name: join(found.name, index) }));
}

function readRules({ node, name }: Found): DataRules {
  if (node.value !== undefined || node.children.size === 0) {
    throw invalidParam(name, `rules given as ${name}.<field>.selector, ${name}.<field>.attr, ${name}.<field>.type`);
  }
  // Object.fromEntries defines own properties, so no field name can reach a prototype.
  return Object.fromEntries(
    [...node.children.entries()].map(([field, sub]) => {
      const fieldName = join(name, field);
      if (!FIELD_NAME.test(field)) {
        throw invalidParam(fieldName, 'a field name of letters, digits, _, $ or -, not starting with a digit');
      }
      return [field, readField({ node: sub, name: fieldName })];
    }),
  );
}

export function readData(root: QueryNode): DataRules | undefined {
  const found = child(root, 'data');
  return found ? readRules(found) : undefined;
}
