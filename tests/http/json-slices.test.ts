import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringifyInSlices } from '../../lib/http/json-slices.ts';
import { joined } from '../../lib/text/pieces.ts';

const long = (unit: string, chars: number) => unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);

test('the text is JSON.stringify\'s, for values large enough to be written in slices', async () => {
  // 😀 at every position around a piece's end (64 Ki characters): a pair is never cut, a lone half stays escaped.
  const pairs = Array.from({ length: 4 }, (_, shift) => `${'a'.repeat(65_535 - shift)}😀${long('b\n"\\', 70_000)}`);
  const lone = `${'a'.repeat(65_535)}\ud83d${'c'.repeat(70_000)}\ude00`;
  const date = new Date(0);
  const values: unknown[] = [
    { status: 'success', data: { x: [long('# Title\n\n"quoted" \\ \t\u0001 ', 200_000), null, 1.5, true], y: pairs, z: lone } },
    { big: long('x', 100_000), skip: undefined, fn: () => 1, nan: Number.NaN, inf: -Infinity, date, nested: { a: [undefined, () => 1, Symbol('s')] } },
    [long('é', 80_000), [], {}, [[[]]], { '': '', 'quote"key': 1, 10: 'ten', 2: 'two' }],
    Object.assign(Object.create(null) as object, { big: long('y', 90_000), n: 0 }),
    Array.from({ length: 50_000 }, (_, i) => ({ i, s: `item ${i}` })),
    [long('z', 70_000), ...Array.from({ length: 300_000 }, (_, i) => i % 7)],
    // toJSON as JSON.stringify calls it: with the member's own key, once, its result left out or written null alike.
    {
      big: long('x', 100_000),
      gone: { toJSON: () => undefined },
      nulls: [{ toJSON: () => undefined }, () => 1],
      array: Object.assign([1, 2], { toJSON: () => 'A' }),
      key: { toJSON: (key: string) => `under ${key}` },
      nested: [long('y', 70_000), { toJSON: (key: string) => `at ${key}` }, { inner: { toJSON: (key: string) => key } }],
      boxed: [Object('s'), Object(1), Object(false)],
      notAFunction: { toJSON: 1 },
    },
  ];
  for (const value of values) assert.equal(joined(await stringifyInSlices(value)), JSON.stringify(value));
});

test('a cycle is a TypeError, as JSON.stringify says, not a loop', async () => {
  const cyclic: Record<string, unknown> = { big: long('x', 70_000) };
  cyclic.self = { back: cyclic };
  await assert.rejects(stringifyInSlices(cyclic), TypeError);
  await assert.rejects(stringifyInSlices({ big: long('x', 70_000), n: 1n }), TypeError);
});

test('small answers are written in one call, exactly as JSON.stringify writes them', async () => {
  for (const value of [{ status: 'success', data: { title: 'A "page"' } }, 'text', 1, null, [1, undefined]]) {
    assert.equal(await stringifyInSlices(value), JSON.stringify(value));
  }
});

test('a large answer gives the event loop back while it is written', async () => {
  const value = { data: { x: Array.from({ length: 60 }, () => long('line\n"quoted"\\ ', 100_000)) } };
  // Written in one call (or only in promise continuations), it would be done before this callback ran.
  let loopTurned = false;
  setImmediate(() => (loopTurned = true));
  const text = await stringifyInSlices(value);
  assert.equal(loopTurned, true, 'the event loop ran while 6 M characters were written');
  assert.equal(joined(text), JSON.stringify(value));
});

test('a large answer comes in pieces of about 64 Ki characters, each whole UTF-16 (no pair cut), never one string', async () => {
  const value = { data: { x: `${'a'.repeat(65_535)}${'😀'.repeat(100_000)}`, y: Array.from({ length: 100_000 }, (_, i) => i) } };
  const text = await stringifyInSlices(value);
  assert.ok(Array.isArray(text), 'pieces');
  assert.ok(text.length > 4);
  for (const piece of text.slice(0, -1)) assert.ok(piece.length >= 64 * 1024 && piece.length < 140 * 1024, `a piece of ${piece.length}`);
  assert.ok(text.every((piece) => Buffer.from(piece).toString() === piece), 'no piece ends or starts inside a surrogate pair');
  assert.equal(joined(text), JSON.stringify(value));
});
