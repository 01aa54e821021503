/** The stylesheet each `codeScheme` draws: automad-prism-themes' file wherever it has the id, as Microlink's is. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { codeDocument } from '../../lib/browser/code.ts';
import { CODE_SCHEMES, type CodeScheme } from '../../lib/query/code-scheme.ts';

const require = createRequire(import.meta.url);
const file = (module: string): string => readFileSync(require.resolve(module), 'utf8');
const document = (scheme: CodeScheme): Promise<string> => codeDocument('{"a":1}', 'json', scheme);

describe('code themes', () => {
  test('every accepted scheme has a stylesheet', async () => {
    for (const scheme of CODE_SCHEMES) {
      const html = await document(scheme);
      assert.match(html, /<style>[^<]*pre\[class\*=(")?language-/, scheme);
    }
  });

  test('each id draws the file Microlink draws for it', async () => {
    for (const [scheme, module] of [
      // Also in prism-themes: automad's file wins.
      ['atom-dark', 'automad-prism-themes/dist/prism-atom-dark.css'],
      ['dracula', 'automad-prism-themes/dist/prism-dracula.css'],
      // A single theme and a combo share the name: the single one.
      ['night-owl', 'automad-prism-themes/dist/prism-night-owl.css'],
      ['night-owl.light-dark', 'automad-prism-themes/dist/prism-night-owl.light-dark.css'],
      ['github', 'automad-prism-themes/dist/prism-github.light-dark.css'],
      ['tokyo-night', 'automad-prism-themes/dist/prism-tokyo-night.css'],
      ['one-dark', 'prism-themes/themes/prism-one-dark.min.css'],
      ['prism', 'prismjs/themes/prism.min.css'],
      ['okaidia', 'prismjs/themes/prism-okaidia.min.css'],
    ] as const) {
      assert.ok((await document(scheme)).includes(`<style>${file(module)}</style>`), `${scheme}: ${module}`);
    }
  });
});
