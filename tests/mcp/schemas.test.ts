/**
 * The tools' input schemas against docs/openapi.json's query parameters: every parameter a tool offers is in its
 * schema and nothing else is (the tools' own arguments aside), and each parameter's documented example, given as a
 * tool argument, passes the schema and reaches the query as the same parameter with the same value.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { queryOf } from '../../lib/mcp/query.ts';
import { isPlaceholder, offeredParameters, QUERY_PARAMETERS, type JsonSchema } from '../../lib/mcp/schemas.ts';
import { TOOLS } from '../../lib/mcp/tools.ts';
import { DOCUMENT } from '../openapi/conformance.ts';

/** Arguments of the tools' own, not the API's. */
const OWN: Record<string, string[]> = { extract: [], markdown: ['selector', 'maxCharacters'], screenshot: [] };

/** Every dotted path the schema takes a value at; `*` for a name the caller chooses. */
function paths(schema: JsonSchema, path: string): string[] {
  if (Array.isArray(schema.anyOf)) return [...new Set((schema.anyOf as JsonSchema[]).flatMap((branch) => paths(branch, path)))];
  if (schema.type !== 'object') return [path];
  const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  const named = properties.flatMap(([name, child]) => paths(child, path ? `${path}.${name}` : name));
  const additional = schema.additionalProperties;
  return typeof additional === 'object' ? [...named, ...paths(additional as JsonSchema, `${path}.*`)] : named;
}

/** A documented name as schema paths: a placeholder its pattern lists, each name; any other, `*`. */
function documentedPaths(name: string, pattern: string | undefined): string[] {
  const listed = /\((\w+(?:\|\w+)*)\)\$$/.exec(pattern ?? '')?.[1]?.split('|');
  const segments = name.split('.');
  const at = segments.findIndex(isPlaceholder);
  if (at === -1) return [name];
  const names = listed ?? ['*'];
  return names.map((chosen) => segments.map((segment, i) => (i === at ? chosen : segment)).join('.'));
}

/** Arguments giving `value` at a dotted key (`screenshot.fullPage` → `{ screenshot: { fullPage } }`). */
function argsAt(key: string, value: unknown): Record<string, unknown> {
  const root: Record<string, unknown> = { url: 'https://example.com/' };
  const segments = key.split('.');
  let at = root;
  for (const segment of segments.slice(0, -1)) at = (at[segment] ??= {}) as Record<string, unknown>;
  at[segments.at(-1)!] = value;
  return root;
}

/** The example as JSON gives it, for the value schema at its path. */
function asArgument(example: string, schema: { type?: string }): unknown {
  if (schema.type === 'boolean') return example !== 'false';
  if (schema.type === 'integer') return Number(example);
  return example;
}

const validator = new AjvJsonSchemaValidator();

for (const tool of TOOLS) {
  describe(`${tool.name}`, () => {
    test('its schema takes exactly the parameters it offers, each where its dotted name says', () => {
      const offered = offeredParameters(tool.name).flatMap((parameter) => documentedPaths(parameter.name, parameter['x-glance-pattern']));
      const taken = paths(tool.inputSchema as JsonSchema, '').filter((path) => !OWN[tool.name]!.includes(path));
      assert.deepEqual([...taken].sort(), [...new Set(offered)].sort());
      assert.ok(offered.includes('url'));
    });

    test('each parameter\'s example passes the schema and reaches the query unchanged', () => {
      const check = validator.getValidator(tool.inputSchema);
      const documented = DOCUMENT.components.parameters as Record<string, { example: string; 'x-glance-example-key'?: string; name: string }>;
      const wrong: string[] = [];
      for (const parameter of offeredParameters(tool.name)) {
        const { example, 'x-glance-example-key': exampleKey } = Object.values(documented).find((candidate) => candidate.name === parameter.name)!;
        const key = exampleKey ?? parameter.name;
        const value = asArgument(example, parameter.schema.enum?.toString() === 'true,false,' ? { type: 'boolean' } : parameter.schema.pattern === '^\\d+$' ? { type: 'integer' } : {});
        const args = key === 'url' ? { url: example } : argsAt(key, value);
        const checked = check(args);
        if (!checked.valid) wrong.push(`${key}=${example}: ${checked.errorMessage}`);
        const sent = new URLSearchParams(queryOf(args)).get(key);
        if (sent !== (example === '' ? 'true' : example)) wrong.push(`${key}=${example} is sent as ${sent}`);
      }
      assert.deepEqual(wrong, []);
    });
  });
}

test('the tools leave out only what answers other than data, and the refused or legacy parameters', () => {
  const extract = new Set(offeredParameters('extract').map((parameter) => parameter.name));
  const left = QUERY_PARAMETERS.filter((parameter) => !extract.has(parameter.name)).map((parameter) => parameter.name);
  assert.deepEqual(left.sort(), ['embed', 'stream']);
});
