/**
 * What Glance takes from autoconsent's content script (lib/browser/consent-messages.ts): the reports, finds and
 * snippet requests it acts on, well formed; anything else, or anything longer than a message ever is, is dropped.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_MESSAGE_CHARS, parseConsentMessage } from '../../lib/browser/consent-messages.ts';

const report = (state: unknown) => JSON.stringify({ type: 'report', instanceId: '0.5', url: 'https://news.example/', mainFrame: true, state });

test('a report gives its lifecycle and looks, a find and a snippet request their own parts', () => {
  assert.deepEqual(parseConsentMessage(report({ lifecycle: 'started', prehideOn: true, findCmpAttempts: 1 })), {
    type: 'report',
    lifecycle: 'started',
    attempts: 1,
  });
  assert.deepEqual(parseConsentMessage(JSON.stringify({ type: 'cmpDetected', cmp: 'Onetrust', url: 'x' })), { type: 'cmpDetected' });
  assert.deepEqual(parseConsentMessage(JSON.stringify({ type: 'eval', id: '0.25', code: 'anything', snippetId: 'EVAL_COOKIEBOT_1' })), {
    type: 'eval',
    id: '0.25',
    snippetId: 'EVAL_COOKIEBOT_1',
  });
});

test("a frame's first word gives its address and whether it is the top frame; without both it is dropped", () => {
  assert.deepEqual(parseConsentMessage(JSON.stringify({ type: 'init', url: 'https://news.example/', mainFrame: false })), {
    type: 'init',
    url: 'https://news.example/',
    mainFrame: false,
  });
  for (const init of [{ type: 'init', url: 'https://news.example/' }, { type: 'init', url: 7, mainFrame: true }, { type: 'init', url: 'x', mainFrame: 'yes' }]) {
    assert.equal(parseConsentMessage(JSON.stringify(init)), undefined, JSON.stringify(init));
  }
});

test('malformed, unknown and oversized messages are dropped, never thrown', () => {
  const dropped = [
    'not json',
    'null',
    '[]',
    '"report"',
    JSON.stringify({ type: 'optOut' }),
    report(undefined),
    report({ lifecycle: 7, findCmpAttempts: 1 }),
    report({ lifecycle: 'started', findCmpAttempts: -1 }),
    report({ lifecycle: 'started', findCmpAttempts: 1.5 }),
    report({ lifecycle: 'x'.repeat(65), findCmpAttempts: 1 }),
    JSON.stringify({ type: 'eval', id: '1' }),
    JSON.stringify({ type: 'eval', id: { toString: null }, snippetId: 'EVAL_0' }),
    JSON.stringify({ type: 'eval', id: '1', snippetId: 'EVAL_0', pad: 'x'.repeat(MAX_MESSAGE_CHARS) }),
  ];
  for (const payload of dropped) assert.equal(parseConsentMessage(payload), undefined, payload.slice(0, 80));
});
