/**
 * What @microlink/mql really sends: its own getApiUrl builds the query string from client options, and the
 * parser must read back the same options.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { parseQuery } from '../../lib/query/index.ts';

const require = createRequire(import.meta.url);
const mql = require('@microlink/mql') as { getApiUrl: (url: string, opts: object) => [string, object] };

const sent = (url: string, opts: object): string => new URL(mql.getApiUrl(url, opts)[0]).search.slice(1);

describe('@microlink/mql query strings', () => {
  test('a screenshot with an overlay, waits and headers', () => {
    const options = parseQuery(
      sent('https://example.com/a?b=1&c=2', {
        screenshot: {
          fullPage: true,
          overlay: { browser: 'dark', background: 'linear-gradient(225deg, #FF057C 0%, #8D0B93 50%, #321575 100%)' },
        },
        meta: false,
        waitUntil: ['load', 'networkidle0'],
        headers: { 'accept-language': 'es' },
        ttl: '1d',
        staleTtl: 0,
        filter: 'screenshot',
      }),
    );
    assert.equal(options.url, 'https://example.com/a?b=1&c=2');
    assert.equal(options.meta, false);
    assert.deepEqual(options.screenshot && options.screenshot.overlay, {
      browser: 'dark',
      background: 'linear-gradient(225deg, #FF057C 0%, #8D0B93 50%, #321575 100%)',
    });
    assert.equal(options.screenshot && options.screenshot.fullPage, true);
    assert.deepEqual(options.waitUntil, ['load', 'networkidle0']);
    assert.deepEqual(options.headers, { 'accept-language': 'es' });
    assert.equal(options.ttl, 86_400_000);
    assert.equal(options.staleTtl, 0);
    assert.deepEqual(options.filter, ['screenshot']);
  });

  test('custom data rules with fallbacks and nesting', () => {
    const options = parseQuery(
      sent('https://github.com/kikobeats', {
        data: {
          avatar: [
            { selector: 'meta[name="twitter:image:src"]:not([content=""])', attr: 'content', type: 'image' },
            { selector: 'meta[property="og:image"]:not([content=""])', attr: 'content', type: 'image' },
          ],
          stats: {
            selector: '.application-main',
            attr: { followers: { selector: 'a[href*="tab=followers"] span', type: 'number' } },
          },
        },
        ping: { audio: false },
        pdf: { margin: { top: '1cm' }, landscape: true },
      }),
    );
    assert.equal(options.data?.['avatar']?.length, 2);
    assert.deepEqual(options.data?.['avatar']?.[1]?.selector, ['meta[property="og:image"]:not([content=""])']);
    assert.deepEqual(options.data?.['stats']?.[0]?.rules?.['followers']?.[0]?.type, ['number']);
    assert.deepEqual(options.ping, { image: true, logo: true, audio: false, video: true });
    assert.equal(options.pdf && options.pdf.margin.top, '1cm');
    assert.equal(options.pdf && options.pdf.landscape, true);
  });
});
