/** The adblock engine's rules: read from the packaged lists, trimmed to what the engine runs, plus the deployer's. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Request } from '@ghostery/adblocker';
import { PACKAGED_FILTERS, packagedList, rawFilterList, usableRules } from '../../lib/browser/adblock-lists.ts';
import { adblocker } from '../../lib/browser/adblock.ts';
import { buildEngine } from '../../lib/browser/adblock-engine.ts';
import { WorkPool } from '../../lib/work/pool.ts';

const work = new WorkPool({ size: 1 });
const blocks = async (lists: readonly string[], url: string, engine?: string) =>
  (await adblocker({ lists, engine }, work)).match(Request.fromRawDetails({ url, sourceUrl: 'https://news.example/', type: 'script' })).match;

describe('adblock lists', () => {
  const dir = mkdtempSync(join(tmpdir(), 'glance-lists-'));
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await work.close();
  });

  test('the original list text is read out of a declarative ruleset, escapes and all', () => {
    const text = '! Title: A list\r\n||ads.example^\r\nexample.com##div[title="a \\"quoted\\" \\\\ ad"]';
    const json = JSON.stringify([{ id: 1, metadata: { metadata: { rulesCount: 2 }, rawFilterList: text } }, { id: 2, condition: { urlFilter: '||ads.example^' } }]);
    assert.equal(rawFilterList(json), text);
    assert.throws(() => rawFilterList('[{"id":1}]'), /rawFilterList/);
  });

  test('the packaged lists are the AdGuard Base and Tracking Protection filters, read whole', async () => {
    for (const { name, id } of PACKAGED_FILTERS) {
      const text = await packagedList(id);
      assert.match(text.slice(0, 200), new RegExp(`! Title: ${name}`));
      assert.ok(usableRules(text).length > 50_000, `${name}: ${usableRules(text).length} rules`);
    }
  });

  test('comments, headers and AdGuard-only or rewriting rules are left out', () => {
    const kept = usableRules(
      [
        '[Adblock Plus 2.0]', '! comment', '', '||ads.example^', '@@||ads.example/ok.js', 'example.com##.ad',
        'example.com#%#//scriptlet("abort-on-property-read", "x")', 'example.com#$#.ad { display: none !important; }',
        'example.com#?#.ad:has(> a)', 'example.com$$script[tag-content="ad"]', '||example.com^$removeparam=utm_source',
        '||cdn.example/ad.js$script,redirect=noopjs', '||example.com^$csp=script-src', '  ||spaced.example^  ',
      ].join('\r\n'),
    );
    assert.deepEqual(kept, ['||ads.example^', '@@||ads.example/ok.js', 'example.com##.ad', '||spaced.example^']);
  });

  test('ad and tracker hosts are blocked, a site of its own is not', async () => {
    for (const url of ['https://securepubads.g.doubleclick.net/tag/js/gpt.js', 'https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js', 'https://www.google-analytics.com/analytics.js']) {
      assert.equal(await blocks([], url), true, url);
    }
    assert.equal(await blocks([], 'https://cdn.news.example/app.js'), false);
  });

  test("a deployer's list (GLANCE_ADBLOCK_LISTS) adds its rules to the packaged ones", async () => {
    const list = join(dir, 'own.txt');
    writeFileSync(list, '[Adblock Plus 2.0]\n! Title: our own\n||widgets.glance-test.example^$third-party\n');
    const url = 'https://widgets.glance-test.example/embed.js';
    assert.equal(await blocks([], url), false);
    assert.equal(await blocks([list], url), true);
    assert.equal(await blocks([list], 'https://securepubads.g.doubleclick.net/tag/js/gpt.js'), true);
  });

  test('an engine serialized ahead of time (GLANCE_ADBLOCK_ENGINE) blocks what the lists it came from block', async () => {
    const list = join(dir, 'baked.txt');
    writeFileSync(list, '||baked.glance-test.example^\n');
    const path = join(dir, 'engine.bin');
    writeFileSync(path, (await buildEngine([list])).serialize());
    assert.equal(await blocks([], 'https://baked.glance-test.example/x.js', path), true);
    assert.equal(await blocks([], 'https://securepubads.g.doubleclick.net/tag/js/gpt.js', path), true);
    assert.equal(await blocks([], 'https://cdn.news.example/app.js', path), false);
  });
});
