/**
 * docs/openapi.json against the specification and against the code: it is a valid OpenAPI 3.1 document; its
 * error codes are lib/errors.ts's catalogue, each under its own HTTP status; its query parameters are the ones the
 * query parser reads, no more and no fewer.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ERRORS, GlanceError } from '../../lib/errors.ts';
import { parseQuery, readQuery } from '../../lib/query/index.ts';
import type { QueryNode } from '../../lib/query/tree.ts';
import { DOCUMENT } from './conformance.ts';

test('is a valid OpenAPI 3.1 document', async () => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(DOCUMENT));
  assert.equal(validator.version, '3.1');
  assert.deepEqual(result, { valid: true });
});

test('carries the package\'s version', () => {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(DOCUMENT.info.version, version);
});

describe('error codes', () => {
  const errorResponses = Object.entries<any>(DOCUMENT.components.responses).filter(([name]) => /^Error\d{3}$/.test(name));
  const codesUnder = (response: any): string[] => response.content['application/json'].schema.allOf[1].properties.code.enum;

  test('the document names every code of lib/errors.ts, and no other', () => {
    assert.deepEqual([...DOCUMENT.components.schemas.ErrorCode.enum].sort(), Object.keys(ERRORS).sort());
    const listed = errorResponses.flatMap(([, response]) => codesUnder(response));
    assert.deepEqual([...listed].sort(), Object.keys(ERRORS).sort(), 'each code under exactly one status');
  });

  test('each code is documented under the HTTP status lib/errors.ts gives it, with the JSend status that follows', () => {
    for (const [name, response] of errorResponses) {
      const status = Number(name.slice('Error'.length));
      for (const code of codesUnder(response)) {
        assert.equal(ERRORS[code as keyof typeof ERRORS], status, `${code} is documented under ${status}`);
        assert.equal(response.content['application/json'].schema.allOf[1].properties.status.const, new GlanceError(code as keyof typeof ERRORS, '').status);
      }
      const operations = Object.values<any>(DOCUMENT.paths['/']).filter((operation) => operation.responses);
      assert.ok(operations.some((operation) => operation.responses[status]?.$ref === `#/components/responses/${name}`), `an operation of / answers ${status}`);
    }
  });
});

interface QueryParameter {
  readonly name: string;
  readonly example: string;
  readonly schema: { enum?: string[] };
  readonly deprecated?: boolean;
  readonly 'x-glance-pattern'?: string;
  readonly 'x-glance-example-key'?: string;
  readonly 'x-glance-requires'?: string;
}

const PARAMETERS: QueryParameter[] = Object.values<any>(DOCUMENT.components.parameters).filter((parameter) => parameter.in === 'query');

const camelOf = (key: string): string => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * Every dotted key the parser looks up by name. The readers run over trees whose maps record each lookup: first
 * with only `url` given, then again with each key found given as an object (empty, and with one unknown sub-key,
 * since some readers look at sub-keys only when there are some), inside the keys that revealed it (the legacy
 * `overlay` is read only with `screenshot` on), until no new key appears.
 */
function keysTheParserReads(): Set<string> {
  const read = new Set<string>();
  class RecordingMap extends Map<string, QueryNode> {
    readonly prefix: string;
    constructor(prefix: string) {
      super();
      this.prefix = prefix;
    }
    override get(key: string): QueryNode | undefined {
      read.add(this.prefix + camelOf(key));
      return super.get(key);
    }
  }
  const node = (name: string, value?: string): QueryNode => ({ value, children: new RecordingMap(name === '' ? '' : `${name}.`) });
  const probe = (given: readonly string[], withSubKey: boolean): void => {
    const root = node('');
    root.children.set('url', node('url', 'https://example.com/'));
    let last = root;
    for (const key of given) {
      let at = root;
      const path: string[] = [];
      for (const segment of key.split('.')) {
        path.push(segment);
        let next = at.children.get(segment);
        if (!next) at.children.set(segment, (next = node(path.join('.'))));
        at = next;
      }
      last = at;
    }
    if (withSubKey && last !== root) last.children.set('zz', node('zz', '1'));
    try {
      readQuery(root);
    } catch {
      // A refused tree still revealed the keys read before the refusal.
    }
  };
  const queue: string[][] = [[]];
  const expanded = new Set<string>();
  while (queue.length > 0) {
    const given = queue.shift() as string[];
    const before = new Set(read);
    probe(given, false);
    probe(given, true);
    for (const key of read) {
      if (before.has(key) || expanded.has(key) || key === 'url' || given.length >= 4) continue;
      expanded.add(key);
      queue.push([...given, key]);
    }
  }
  return read;
}

/** The options a query parses to, or the refusal it gets: what a parameter changes shows that it is read. */
function outcome(query: string): unknown {
  try {
    return parseQuery(query);
  } catch (error) {
    return error instanceof GlanceError ? { refused: error.code, message: error.message } : error;
  }
}

const isRefused = (result: unknown): boolean => typeof result === 'object' && result !== null && 'refused' in result;

const isBooleanFeature = (name: string): boolean =>
  PARAMETERS.some((parameter) => parameter.name === name && parameter.schema.enum?.includes('true') === true);

/**
 * A query giving `parameter` the value, and the same query without it. Inside its feature when it has one
 * (`pdf=true` for `pdf.margin.top`), or what it requires (`screenshot` for the legacy `type`), so that the key itself
 * must make the difference.
 */
function queriesFor(parameter: QueryParameter, value: string): { base: string; given: string } {
  const key = parameter['x-glance-example-key'] ?? parameter.name;
  assert.doesNotMatch(key, /[<>]/, `${parameter.name} has a concrete x-glance-example-key`);
  const segments = key.split('.');
  const feature = segments.map((_, i) => segments.slice(0, i).join('.')).reverse().find((prefix) => prefix !== '' && isBooleanFeature(prefix));
  const context = parameter['x-glance-requires'] ?? (feature ? `${feature}=true` : '');
  const base = `url=https%3A%2F%2Fexample.com%2F${context ? `&${context}` : ''}`;
  return { base, given: `${base}&${encodeURIComponent(key)}=${encodeURIComponent(value)}` };
}

describe('query parameters', () => {
  const names = PARAMETERS.map((parameter) => parameter.name);
  const patterns = PARAMETERS.flatMap((parameter) => (parameter['x-glance-pattern'] ? [new RegExp(parameter['x-glance-pattern'])] : []));
  const documented = (key: string): boolean =>
    names.includes(key) || patterns.some((pattern) => pattern.test(key)) || names.some((name) => name.startsWith(`${key}.`));

  test('every key the query parser reads is documented (a key read only as an object, by its sub-keys)', () => {
    const read = keysTheParserReads();
    // The probe must reach the nested readers, or this test proves nothing.
    for (const deep of ['screenshot.overlay.browser', 'overlay.background', 'pdf.margin.top', 'insights.lighthouse.onlyCategories', 'viewport.isLandscape']) {
      assert.ok(read.has(deep), `the probe reached ${deep}`);
    }
    assert.deepEqual([...read].filter((key) => !documented(key)), []);
  });

  test('every documented parameter is read: its example changes the parsed options, or is refused', () => {
    const ignored = PARAMETERS.filter((parameter) => parameter.name !== 'url').filter((parameter) => {
      const { base, given } = queriesFor(parameter, parameter.example);
      return JSON.stringify(outcome(base)) === JSON.stringify(outcome(given));
    });
    assert.deepEqual(ignored.map((parameter) => `${parameter.name}=${parameter.example}`), []);
  });

  test('every value a parameter enumerates is accepted, and one outside them refused', () => {
    const wrong: string[] = [];
    for (const parameter of PARAMETERS.filter((parameter) => parameter.schema.enum && !parameter.deprecated)) {
      for (const value of parameter.schema.enum ?? []) {
        if (isRefused(outcome(queriesFor(parameter, value).given))) wrong.push(`${parameter.name}=${value} is refused`);
      }
      if (!isRefused(outcome(queriesFor(parameter, 'zzz').given))) wrong.push(`${parameter.name}=zzz is accepted`);
    }
    assert.deepEqual(wrong, []);
  });

  test('every example matches its parameter\'s schema (the refused parameters aside)', () => {
    const ajv = new Ajv2020({ strict: false });
    const mismatched = PARAMETERS.filter((parameter) => !parameter.deprecated && !ajv.validate(parameter.schema, parameter.example));
    assert.deepEqual(mismatched.map((parameter) => `${parameter.name}=${parameter.example}`), []);
  });

  test('parameters the parser ignores are not documented: a made-up one changes nothing', () => {
    assert.equal(JSON.stringify(outcome('url=https%3A%2F%2Fexample.com%2F&madeUp=1')), JSON.stringify(outcome('url=https%3A%2F%2Fexample.com%2F')));
    assert.equal(documented('madeUp'), false);
  });
});
