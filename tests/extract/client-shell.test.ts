import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isClientShell } from '../../lib/extract/client-shell.ts';
import { collectFacts, readFacts } from '../../lib/extract/collect.ts';
import { PAGE_URL } from './helpers.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

const SHELL = '<html><head><title>App</title><script src="/app.js"></script></head><body><div id="root"></div><noscript>You need to enable JavaScript to run this app. '.padEnd(400, 'x') + '</noscript></body></html>';

const shell = (html: string, description: string | null = null): boolean => isClientShell(collectFacts(html, PAGE_URL), description);

test('an empty client-side shell is rendered', () => {
  assert.equal(shell(SHELL), true);
});

test('a page with a description, no scripts, or real text stays on the fetch path', () => {
  assert.equal(shell(SHELL, 'A described app'), false);
  assert.equal(shell('<html><body><div id="root"></div></body></html>'), false);
  const article = `<html><script src="/a.js"></script><body><article>${'Real words here. '.repeat(20)}</article></body></html>`;
  assert.equal(shell(article), false);
});

test('what a body shows: no script, style, template, svg or noscript text; the head\'s only when there is no <body>', () => {
  const hidden = (inner: string) => `<script src=a.js></script><body>${inner}</body>`;
  const words = 'word '.repeat(50);
  assert.equal(shell(hidden(`<style>${words}</style><template>${words}</template><svg><text>${words}</text></svg><noscript>${words}</noscript>`)), true);
  assert.equal(shell(hidden(`<div>${words}</div>`)), false);
  // A head's text does not count once the page has a body; without one, everything does.
  assert.equal(shell(`<head><title>${words}</title><script src=a.js></script></head><body></body>`), true);
  assert.equal(shell(`<title>${words}</title><script src=a.js></script>`), false);
});

test('a <style> or <script> closing inside a <template> leaves the rest of the template hidden', () => {
  const words = 'word '.repeat(50);
  assert.equal(shell(`<script src=a.js></script><body><template><style>p{}</style>${words}<script>x</script>${words}</template></body>`), true);
  assert.equal(shell(`<script src=a.js></script><body><template><style>p{}</style></template>${words}</body>`), false);
});

test('whitespace collapses and a tag parts words, as a reader sees the text', () => {
  const body = (inner: string) => `<script src=a.js></script><body>${inner}</body>`;
  // 100 one-letter words parted by tags: 199 characters, under the limit; 101 of them: 201, over it.
  assert.equal(shell(body('<i>a</i>'.repeat(100))), true);
  assert.equal(shell(body('<i>a</i>'.repeat(101))), false);
  assert.equal(shell(body(`a${'  \n\t '.repeat(1000)}`.repeat(100))), true);
});

test('a body of a million tags is judged from the page\'s one sliced parse, which gives the event loop back', async () => {
  const html = `<script src=a.js></script><body>${'<i>'.repeat(1_000_000)}`;
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  try {
    assert.equal(isClientShell(await readFacts(html, PAGE_URL), null), true);
  } finally {
    clearInterval(timer);
  }
  assert.ok(ticks > 0, 'a timer ran while the page was parsed');
});
