/** JSON a stranger wrote is parsed with its nesting bounded (lib/json.ts). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deepJson } from '../bench/lib/hostile.ts';
import { MAX_JSON_DEPTH, parseJson, withinDepth } from '../lib/json.ts';
import { buildDocument, runRules } from '../lib/rules/index.ts';

describe('JSON with its nesting bounded', () => {
  test('arrays and objects count, brackets inside strings do not, escaped quotes included', () => {
    assert.equal(withinDepth(deepJson(MAX_JSON_DEPTH)), true);
    assert.equal(withinDepth(deepJson(MAX_JSON_DEPTH + 1)), false);
    assert.equal(withinDepth(`{"a":${'{"b":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`), false);
    assert.equal(withinDepth(JSON.stringify(['['.repeat(10_000), '\\"[[[', { a: '{{{{' }])), true);
  });

  test('too deep is not JSON to us; anything else parses as JSON.parse does', () => {
    assert.equal(parseJson(deepJson(100_000)), undefined);
    assert.deepEqual(parseJson('{"a":[1,{"b":"]"}]}'), { a: [1, { b: ']' }] });
    assert.equal(parseJson('{"a":'), undefined);
  });

  test('attr=json of a value nested 100 000 deep is no value, not a stack overflow', async () => {
    const html = `<pre>${deepJson(100_000)}</pre><p>{"fine": true}</p>`;
    const json = (selector: string) => [{ selector: [selector], all: false, attr: ['json'], rules: undefined, type: ['object' as const], evaluate: undefined }];
    const values = await runRules({ deep: json('pre'), fine: json('p') }, { document: buildDocument(html), url: 'https://site.test/' }, { media: async () => null });
    assert.deepEqual(values, { deep: null, fine: { fine: true } });
  });
});
