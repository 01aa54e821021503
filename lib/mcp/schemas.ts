/**
 * The tools' input schemas, derived from docs/openapi.json's query parameters (the one description of the options,
 * which tests/openapi/document.test.ts keeps equal to what the query parser reads): a dotted name becomes nested
 * objects, as @microlink/mql writes options (`{ screenshot: { fullPage: true } }` is `screenshot.fullPage=true`), and
 * a `true`/`false` parameter a boolean. tests/mcp/schemas.test.ts keeps every offered parameter in its tool's schema.
 */
import document from '../http/openapi-document.cts';

export type JsonSchema = Record<string, unknown>;

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly description?: string;
  readonly schema: JsonSchema;
  readonly deprecated?: boolean;
  readonly 'x-glance-pattern'?: string;
  readonly 'x-glance-requires'?: string;
}

/** The query parameters a tool may be given: not the refused ones, nor the legacy flat aliases of nested ones. */
export const QUERY_PARAMETERS: readonly Parameter[] = Object.values(document.components.parameters as Record<string, Parameter>).filter(
  (parameter) => parameter.in === 'query' && !parameter.deprecated && parameter['x-glance-requires'] === undefined,
);

/** How the page is loaded and cached: every tool takes these. */
const PAGE = [
  'url', 'timeout', 'headers', 'ttl', 'staleTtl', 'force', 'cacheKey', 'prerender', 'device', 'viewport', 'waitUntil',
  'waitForSelector', 'waitForTimeout', 'colorScheme', 'mediaType', 'javascript', 'animations', 'click', 'scroll',
  'styles', 'scripts', 'adblock',
];

/** Which parameters each tool offers, by their first segment. `embed` and `stream` answer something else than data. */
export const OFFERED: Readonly<Record<string, (first: string) => boolean>> = {
  extract: (first) => first !== 'embed' && first !== 'stream',
  markdown: (first) => PAGE.includes(first),
  screenshot: (first) => PAGE.includes(first) || first === 'screenshot' || first === 'filename',
};

export const offeredParameters = (tool: string): Parameter[] =>
  QUERY_PARAMETERS.filter((parameter) => OFFERED[tool]!(parameter.name.split('.')[0]!));

const FLAG = ['true', 'false', ''];
const COUNT = '^\\d+$';

/** A parameter's value schema as JSON takes it: flags are booleans, counts integers, the rest the query's string. */
export function valueSchema(parameter: Parameter): JsonSchema {
  const { type: _string, default: given, description: _unit, ...rest } = parameter.schema;
  const described = { description: [parameter.description, parameter.schema.description].filter(Boolean).join(' ') };
  const enumerated = rest.enum as string[] | undefined;
  if (enumerated && enumerated.every((value) => FLAG.includes(value))) {
    return { type: 'boolean', ...(given === undefined ? {} : { default: given === 'true' }), ...described };
  }
  if (rest.pattern === COUNT) return { type: 'integer', minimum: 0, ...(given === undefined ? {} : { default: Number(given) }), ...described };
  return { type: 'string', ...rest, ...(given === undefined ? {} : { default: given }), ...described };
}

interface Node {
  parameter?: Parameter;
  readonly children: Map<string, Node>;
}

/** `<field>` and `<name>`: a segment the caller names. */
export const isPlaceholder = (segment: string): boolean => segment.startsWith('<');

/** The names a placeholder's pattern lists (`^meta\.(title|description)$`), if it lists them. */
function listedNames(parameter: Parameter | undefined): string[] | undefined {
  const listed = /\((\w+(?:\|\w+)*)\)\$$/.exec(parameter?.['x-glance-pattern'] ?? '');
  return listed?.[1]!.split('|');
}

/** A placeholder's names as a pattern of their own: what its parameter's pattern says after the prefix. */
function namePattern(prefix: string, parameter: Parameter | undefined): string | undefined {
  const pattern = parameter?.['x-glance-pattern'];
  const escaped = `^${prefix.replaceAll('.', '\\.')}\\.`;
  const rest = pattern?.startsWith(escaped) ? pattern.slice(escaped.length) : undefined;
  return rest?.endsWith('$') && !rest.includes('\\.') ? `^${rest}` : undefined;
}

function schemaOf(node: Node, path: string): JsonSchema {
  if (node.children.size === 0) return valueSchema(node.parameter as Parameter);
  const properties: Record<string, JsonSchema> = {};
  let additional: JsonSchema | false = false;
  let names: string | undefined;
  for (const [segment, child] of node.children) {
    if (!isPlaceholder(segment)) continue;
    const schema = schemaOf(child, `${path}.${segment}`);
    const listed = listedNames(child.parameter);
    if (listed) for (const name of listed) properties[name] = schema;
    else {
      additional = schema;
      names = namePattern(path, child.parameter);
    }
  }
  for (const [segment, child] of node.children) {
    if (isPlaceholder(segment)) continue;
    const own = schemaOf(child, `${path}.${segment}`);
    // A listed name with parameters of its own (`meta.logo` and `meta.logo.square`): either form.
    properties[segment] = properties[segment] ? { anyOf: [properties[segment], own] } : own;
  }
  const object: JsonSchema = {
    type: 'object',
    ...(Object.keys(properties).length ? { properties } : {}),
    additionalProperties: additional,
    ...(names ? { propertyNames: { pattern: names } } : {}),
  };
  // A flag with options of its own (`screenshot`, `insights.lighthouse`): `true`, or the options (which turn it on).
  return node.parameter ? { anyOf: [valueSchema(node.parameter), object] } : object;
}

/** The properties of a tool's input schema for the parameters it offers (`url` required). */
export function parameterProperties(tool: string): Record<string, JsonSchema> {
  const root: Node = { children: new Map() };
  for (const parameter of offeredParameters(tool)) {
    let node = root;
    for (const segment of parameter.name.split('.')) {
      let next = node.children.get(segment);
      if (!next) node.children.set(segment, (next = { children: new Map() }));
      node = next;
    }
    node.parameter = parameter;
  }
  const properties: Record<string, JsonSchema> = {};
  for (const [segment, node] of root.children) properties[segment] = schemaOf(node, segment);
  return properties;
}
