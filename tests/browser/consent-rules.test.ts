/**
 * The rules each frame's autoconsent is answered with (lib/browser/consent.ts `initAnswer`): the package's own choice
 * for the frame's address (`filterCompactRules`), so a site's own rule reaches that site's top frame, every top frame
 * gets the generic rules, and another frame only the rules made for frames.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { consentScript } from '../../lib/browser/consent.ts';

interface Answer {
  type: string;
  config: { autoAction: string };
  rules: { compact: { r: Array<[number, string]>; s: string[] } };
}

const answer = async (url: string, mainFrame: boolean): Promise<Answer> => JSON.parse((await consentScript()).initAnswer(url, mainFrame)) as Answer;
const names = (of: Answer): string[] => of.rules.compact.r.map((rule) => rule[1]);

test("a top frame gets the generic rules, and a site's own rule on that site only", async () => {
  const elsewhere = await answer('https://news.example/article', true);
  assert.equal(elsewhere.type, 'initResp');
  assert.equal(elsewhere.config.autoAction, 'optOut');
  assert.ok(names(elsewhere).length > 100, `${names(elsewhere).length} generic rules`);
  assert.ok(!names(elsewhere).includes('aa-cookie-banner'));
  const site = await answer('https://www.aa.com/homePage.do', true);
  assert.deepEqual(names(site).filter((name) => !names(elsewhere).includes(name)), ['aa-cookie-banner']);
  // Every string a rule's steps refer to is in the answer's table, not one the package blanked as unused.
  for (const of of [elsewhere, site]) {
    const references = [...JSON.stringify(of.rules.compact.r).matchAll(/"(?:e|v|c|k|w|wv|h|cc)":(\d+)/g)].map(([, index]) => Number(index));
    assert.ok(references.length > 100, `${references.length} references`);
    for (const index of references) assert.ok(Boolean(of.rules.compact.s[index]), String(index));
  }
});

test("another frame gets only the rules made for frames, its site's own among them", async () => {
  assert.deepEqual(names(await answer('https://cmp.example/consent', false)), ['cookiealert', 'piano.io']);
  assert.deepEqual(names(await answer('https://plus.gmx.com/lt', false)), ['cookiealert', 'piano.io', 'gmx-permission']);
});

test('an address of a megabyte is matched by its first part, as the script cuts every address it sends', async () => {
  const long = await answer(`https://www.aa.com/${'x'.repeat(1_000_000)}`, true);
  assert.ok(names(long).includes('aa-cookie-banner'));
  assert.deepEqual(names(long), names(await answer('https://www.aa.com/', true)));
});
