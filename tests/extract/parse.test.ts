import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Handler } from 'htmlparser2';
import { collectFacts, readFacts } from '../../lib/extract/collect.ts';
import { boundedParser, feed, MAX_DEPTH } from '../../lib/extract/parse.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

const OPTIONS = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };

/** Depth of each open tag as the handler sees it, and whether every close matched an open. */
function depths(html: string): { max: number; balanced: boolean; opened: number } {
  let depth = 0;
  let max = 0;
  let opened = 0;
  const handler: Partial<Handler> = {
    onopentag: () => {
      opened++;
      max = Math.max(max, ++depth);
    },
    onclosetag: () => {
      depth--;
    },
  };
  boundedParser(handler, OPTIONS).end(html);
  return { max, balanced: depth === 0, opened };
}

test('htmlparser2 still keeps its open elements where lib/extract/parse.ts bounds them', () => {
  // An upgrade that renames the stack would otherwise silently bring back quadratic parsing.
  assert.doesNotThrow(() => boundedParser({}, OPTIONS));
});

test('nesting stops at Blink\'s depth: deeper elements become siblings at the cap, events stay balanced', () => {
  const n = 2000;
  const seen = depths(`${'<div>'.repeat(n)}x${'</div>'.repeat(n)}`);
  assert.equal(seen.max, MAX_DEPTH);
  assert.equal(seen.opened, n);
  assert.equal(seen.balanced, true);
  assert.deepEqual(depths('<div><p>a<p>b</div><svg><g></g></svg>'), { max: 2, balanced: true, opened: 5 });
});

test('a page deeper than the cap keeps its metadata', () => {
  const html = `<html><head><title>Deep</title><meta property="og:image" content="/a.png"></head><body>${
    '<div>'.repeat(5000)}<h1>Heading</h1>${'</div>'.repeat(5000)}<p>after</p></body></html>`;
  const facts = collectFacts(html, 'https://example.com/');
  assert.equal(facts.title, 'Deep');
  assert.deepEqual(facts.meta.get('og:image'), ['/a.png']);
  assert.equal(facts.texts.h1[0]?.text, 'Heading');
});

test('hostile nesting parses in linear time', () => {
  for (const html of [
    '<div>'.repeat(300_000),
    `<form>${'<div>'.repeat(600)}${'<form>'.repeat(100_000)}${'</a>'.repeat(300_000)}`,
    `<svg>${'<foreignObject><svg>'.repeat(50_000)}${'</foreignObject>'.repeat(50_000)}`,
  ]) {
    const start = performance.now();
    collectFacts(html, 'https://example.com/');
    assert.ok(performance.now() - start < 3000, `${html.slice(0, 40)}: ${performance.now() - start} ms`);
  }
});

test('feeding yields to the event loop and stops when its signal aborts', async () => {
  const html = '<div>'.repeat(300_000);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  try {
    await readFacts(html, 'https://example.com/');
  } finally {
    clearInterval(timer);
  }
  assert.ok(ticks > 2, `timers ran ${ticks} times during the parse`);
  const controller = new AbortController();
  controller.abort(new Error('stop'));
  await assert.rejects(feed(boundedParser({}, OPTIONS), '<p>x</p>'.repeat(200_000), { signal: controller.signal }), /stop/);
});

test('a surrogate pair split by a slice boundary reaches the handler whole', async () => {
  // JSON-LD text is kept whole (a title would be cut at 600 characters): 😀 straddles the first slice's end.
  const open = '<script type="application/ld+json">';
  const text = `"${'a'.repeat(16_383 - open.length - 1)}😀"`;
  const facts = await readFacts(`${open}${text}</script>`, 'https://example.com/');
  assert.equal(facts.jsonldBlocks[0], text);
});
