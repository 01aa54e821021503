import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalRefresher } from '../../lib/cache/index.ts';

const REQUEST = { rawQueryString: 'url=https://example.com', headers: {} };

describe('createLocalRefresher', () => {
  test('runs after the current work, not during the call', async () => {
    const refresher = createLocalRefresher();
    let ran = false;
    refresher.refresh({ key: 'k', request: REQUEST, run: async () => void (ran = true) });
    assert.equal(ran, false);
    await refresher.idle();
    assert.equal(ran, true);
  });

  test('a refresh of a key already refreshing is dropped; other keys run alongside; a later one runs again', async () => {
    const refresher = createLocalRefresher();
    const runs: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const run = (key: string) => async () => {
      runs.push(key);
      await held;
    };
    for (let index = 0; index < 5; index++) refresher.refresh({ key: 'a', request: REQUEST, run: run('a') });
    refresher.refresh({ key: 'b', request: REQUEST, run: run('b') });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(runs.sort(), ['a', 'b']);
    release();
    await refresher.idle();
    refresher.refresh({ key: 'a', request: REQUEST, run: run('a') });
    await refresher.idle();
    assert.deepEqual(runs.sort(), ['a', 'a', 'b']);
  });

  test('a failing refresh is reported with its key and does not stop the next one', async () => {
    const reported: Array<[string, string]> = [];
    const refresher = createLocalRefresher((error, key) => reported.push([(error as Error).message, key]));
    refresher.refresh({ key: 'k', request: REQUEST, run: async () => Promise.reject(new Error('target down')) });
    await refresher.idle();
    assert.deepEqual(reported, [['target down', 'k']]);
    let ran = false;
    refresher.refresh({ key: 'k', request: REQUEST, run: async () => void (ran = true) });
    await refresher.idle();
    assert.equal(ran, true);
  });

  test('idle also waits for refreshes started while it waits', async () => {
    const refresher = createLocalRefresher();
    const order: string[] = [];
    refresher.refresh({
      key: 'first',
      request: REQUEST,
      run: async () => {
        order.push('first');
        refresher.refresh({ key: 'second', request: REQUEST, run: async () => void order.push('second') });
      },
    });
    await refresher.idle();
    assert.deepEqual(order, ['first', 'second']);
  });
});
