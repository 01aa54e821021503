/** Which `Accept` headers get the playground page at `/` (lib/http/accept.ts): browsers' navigations, no program. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { acceptWeight, prefersHtml } from '../../lib/http/accept.ts';

test("browsers' navigation headers prefer HTML", () => {
  const browsers = [
    // Chromium, Firefox, Safari
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
    'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'TEXT/HTML ; Q=1, application/json;q=0.5',
    'text/*, application/json;q=0.9',
  ];
  for (const accept of browsers) assert.equal(prefersHtml(accept), true, accept);
});

test('programs keep the JSON answer: no header, */*, JSON first, a tie, or HTML refused', () => {
  const programs = [
    undefined,
    '',
    '*/*',
    'application/json',
    'application/json, text/plain, */*',
    'text/html;q=0.5, application/json',
    'text/html, application/json',
    'text/html;q=0, */*',
    'text/plain',
    'application/json;q=0.9, text/html;q=0.9',
  ];
  for (const accept of programs) assert.equal(prefersHtml(accept), false, String(accept));
});

test('the most specific range decides, and a range with a malformed q is ignored', () => {
  assert.equal(acceptWeight('text/*;q=0.3, text/html;q=0.7, */*;q=0.1', 'text/html'), 0.7);
  assert.equal(acceptWeight('text/*;q=0.3, */*;q=0.1', 'text/html'), 0.3);
  assert.equal(acceptWeight('*/*;q=0.1', 'application/json'), 0.1);
  assert.equal(acceptWeight('text/html;q=2, */*;q=0.2', 'text/html'), 0.2);
  assert.equal(acceptWeight('text/html;q=abc', 'text/html'), 0);
  assert.equal(acceptWeight('image/png', 'text/html'), 0);
});

test('a header of thousands of ranges is read in linear time', () => {
  const accept = Array.from({ length: 20_000 }, (_, i) => `type${i}/sub;q=0.5`).join(',') + ',text/html';
  const started = performance.now();
  assert.equal(prefersHtml(accept), true);
  assert.ok(performance.now() - started < 500);
});
