import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GlanceError } from '../../lib/errors.ts';
import { parseQuery } from '../../lib/query/index.ts';
import { buildTree, LIMITS, type QueryNode } from '../../lib/query/tree.ts';
import { expectError, parse, URL_PARAM } from './expect-error.ts';

/** The tree as plain data: `{ '=': value, child: {...} }`. */
function plain(node: QueryNode): unknown {
  const out: Record<string, unknown> = {};
  if (node.value !== undefined) out['='] = node.value;
  for (const [key, sub] of node.children) out[key] = plain(sub);
  return out;
}

describe('query string → tree', () => {
  test('dotted keys build nested nodes, numeric keys are children', () => {
    const tree = buildTree('screenshot.overlay.browser=dark&waitUntil.0=load&waitUntil.1=networkidle0');
    assert.deepEqual(plain(tree), {
      screenshot: { overlay: { browser: { '=': 'dark' } } },
      waitUntil: { '0': { '=': 'load' }, '1': { '=': 'networkidle0' } },
    });
  });

  test('bracket keys are the same as dotted ones, and [] appends', () => {
    assert.deepEqual(plain(buildTree('a[b][c]=1&a.b.d=2')), { a: { b: { c: { '=': '1' }, d: { '=': '2' } } } });
    assert.deepEqual(plain(buildTree('w[]=load&w[]=auto')), { w: { '0': { '=': 'load' }, '1': { '=': 'auto' } } });
  });

  test('a bare key and an empty value both give an empty value; a leading ? is skipped', () => {
    assert.deepEqual(plain(buildTree('?screenshot&pdf=&&=x')), { screenshot: { '=': '' }, pdf: { '=': '' } });
  });

  test('decodes + as space and percent sequences, in keys and values', () => {
    const tree = buildTree('screenshot%2Eelement=%23main+nav&a=%E2%9C%93');
    assert.deepEqual(plain(tree), { screenshot: { element: { '=': '#main nav' } }, a: { '=': '✓' } });
  });

  test('keeps everything after the first = in the value', () => {
    assert.deepEqual(plain(buildTree('headers.x-token=abc==')), { headers: { 'x-token': { '=': 'abc==' } } });
  });

  test('a value and sub-keys can sit on the same key', () => {
    assert.deepEqual(plain(buildTree('screenshot=true&screenshot.type=jpeg')), {
      screenshot: { '=': 'true', type: { '=': 'jpeg' } },
    });
  });

  test('the same key twice with the same value is fine; a bare key equals true', () => {
    assert.deepEqual(plain(buildTree('force=true&force=TRUE&screenshot&screenshot=true')), {
      force: { '=': 'true' },
      screenshot: { '=': '' },
    });
  });
});

describe('query string errors', () => {
  test('malformed percent-encoding in a value names the key', () => {
    expectError(() => parse('screenshot.element=%E0%A4%A'), 'EINVALQUERY', 'screenshot.element');
    expectError(() => parse('waitForSelector=100%'), 'EINVALQUERY', 'waitForSelector');
  });

  test('malformed percent-encoding in a key names the key as sent', () => {
    expectError(() => parse('bad%zzkey=1'), 'EINVALQUERY', 'bad%zzkey');
  });

  test('the same key twice with different values is refused', () => {
    const error = expectError(() => parse('ttl=1h&ttl=2h'), 'EINVALQUERY', 'ttl');
    assert.match(error.message, /given twice/);
    expectError(() => parse('waitUntil[0]=load&waitUntil.0=auto'), 'EINVALQUERY', 'waitUntil.0');
    expectError(() => parseQuery(`${URL_PARAM}&url=https://other.example`), 'EINVALQUERY', 'url');
  });

  test('empty key segments are refused', () => {
    expectError(() => parse('screenshot..element=a'), 'EINVALQUERY', 'screenshot..element');
    expectError(() => parse('.ttl=1h'), 'EINVALQUERY', '.ttl');
  });

  test('nesting past the depth limit is refused', () => {
    const deep = Array.from({ length: LIMITS.depth + 1 }, (_, i) => `k${i}`).join('.');
    const error = expectError(() => parse(`${deep}=1`), 'EINVALQUERY', deep);
    assert.match(error.message, /at most 12 levels/);
    assert.doesNotThrow(() => parse(`data.a.0.attr.b.0.selector.0=h1`));
  });

  test('more keys than the limit are refused with a clear message', () => {
    const many = Array.from({ length: LIMITS.keys }, (_, i) => `k${i}=1`).join('&');
    assert.throws(
      () => parse(many),
      (error: unknown) =>
        error instanceof GlanceError && error.code === 'EINVALQUERY' && /too many parameters/.test(error.message),
    );
    assert.doesNotThrow(() => parse(many.split('&').slice(1).join('&')));
  });
});

describe('prototype pollution', () => {
  const polluting = [
    ['__proto__.polluted=yes', '__proto__.polluted'],
    ['constructor.prototype.polluted=yes', 'constructor.prototype.polluted'],
    ['screenshot.__proto__.polluted=yes', 'screenshot.__proto__.polluted'],
    ['data[__proto__][polluted]=yes', 'data[__proto__][polluted]'],
    ['%5F%5Fproto%5F%5F.polluted=yes', '__proto__.polluted'],
    ['headers.constructor=yes', 'headers.constructor'],
    ['data.x.prototype.selector=h1', 'data.x.prototype.selector'],
  ] as const;

  for (const [query, key] of polluting) {
    test(`refuses ${query} and leaves Object.prototype alone`, () => {
      expectError(() => parse(query), 'EINVALQUERY', key);
      assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
      assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
    });
  }

  test('keys named after Object.prototype members are plain keys', () => {
    const options = parse('toString=1&hasOwnProperty=2&valueOf.x=3');
    assert.equal(typeof options.toString, 'function');
    assert.equal(Object.prototype.hasOwnProperty.call(options, 'hasOwnProperty'), false);
  });
});
