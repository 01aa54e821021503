import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isClientShell } from '../../lib/extract/client-shell.ts';

const SHELL = '<html><head><title>App</title><script src="/app.js"></script></head><body><div id="root"></div><noscript>You need to enable JavaScript to run this app. '.padEnd(400, 'x') + '</noscript></body></html>';

test('an empty client-side shell is rendered', () => {
  assert.equal(isClientShell(SHELL, null), true);
});

test('a page with a description, no scripts, or real text stays on the fetch path', () => {
  assert.equal(isClientShell(SHELL, 'A described app'), false);
  assert.equal(isClientShell('<html><body><div id="root"></div></body></html>', null), false);
  const article = `<html><script src="/a.js"></script><body><article>${'Real words here. '.repeat(20)}</article></body></html>`;
  assert.equal(isClientShell(article, null), false);
});
