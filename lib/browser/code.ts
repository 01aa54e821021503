/**
 * `screenshot.codeScheme`: a target that answers JSON, plain text or source is captured as that content,
 * pretty-printed and syntax-highlighted with a Prism theme (Microlink's identifiers, default `atom-dark`, drawn from
 * the automad-prism-themes file Microlink draws), instead of Chromium's raw text view. Prism (prismjs, maintained,
 * MIT) highlights: the themes are written for its token classes, so each one looks as its authors drew it. The
 * document is drawn in the capture's own page with the theme inlined and a CSP that allows nothing but that inline
 * style: no network, no script.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import {
  AUTOMAD_COMBOS,
  AUTOMAD_THEMES,
  PRISM_THEMES,
  type CodeScheme,
} from '../query/code-scheme.ts';
import type { OpenPage } from './page.ts';
import type { Budget } from '../time/budget.ts';

const require = createRequire(import.meta.url);

/** Content types shown as code, and the Prism grammar for each (`plain`: no highlighting, the theme's colours). */
const LANGUAGES: Array<[RegExp, string]> = [
  [/^application\/(.+\+)?json$/, 'json'],
  [/^(application|text)\/(x-)?(java|ecma)script$/, 'javascript'],
  [/^text\/css$/, 'css'],
  [/^(application|text)\/(.+\+)?xml$/, 'markup'],
  [/^text\/(x-)?markdown$/, 'markdown'],
  [/^(application|text)\/(x-)?yaml$/, 'yaml'],
  [/^text\/plain$/, 'plain'],
];

/** The Prism language for a response's content type, or undefined when it is a page to render as is. */
export function codeLanguage(contentType: string | undefined): string | undefined {
  const essence = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return LANGUAGES.find(([pattern]) => pattern.test(essence))?.[1];
}

const among = (ids: readonly string[], scheme: CodeScheme): boolean => ids.includes(scheme);

/** The stylesheet a scheme names; automad-prism-themes' wins where it has the id, as in Microlink's resolver. */
function themeModule(scheme: CodeScheme): string {
  if (among(AUTOMAD_THEMES, scheme)) return `automad-prism-themes/dist/prism-${scheme}.css`;
  if (among(AUTOMAD_COMBOS, scheme)) return `automad-prism-themes/dist/prism-${scheme}.light-dark.css`;
  if (scheme.endsWith('.light-dark')) return `automad-prism-themes/dist/prism-${scheme}.css`;
  if (among(PRISM_THEMES, scheme)) return `prism-themes/themes/prism-${scheme}.min.css`;
  return `prismjs/themes/${scheme === 'prism' ? 'prism' : `prism-${scheme}`}.min.css`;
}

/** Each theme read once per process: a few kilobytes each, a bounded set of ids. */
const THEMES = new Map<CodeScheme, Promise<string>>();

function themeCss(scheme: CodeScheme): Promise<string> {
  let css = THEMES.get(scheme);
  if (!css) {
    css = readFile(require.resolve(themeModule(scheme)), 'utf8');
    THEMES.set(scheme, css);
    // A failed read (a broken install) is not kept: the next request tries again.
    css.catch(() => THEMES.delete(scheme));
  }
  return css;
}

const escapeHtml = (text: string): string => text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));

/** JSON indented by two spaces; anything else (or JSON that does not parse) as it came. */
function pretty(text: string, language: string): string {
  if (language !== 'json') return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

async function highlight(code: string, language: string): Promise<string> {
  if (language === 'plain') return escapeHtml(code);
  const { default: Prism } = await import('prismjs');
  if (!Prism.languages[language]) {
    const { default: loadLanguages } = (await import('prismjs/components/index.js')) as { default: (names: string[]) => void };
    loadLanguages([language]);
  }
  const grammar = Prism.languages[language];
  return grammar ? Prism.highlight(code, grammar, language) : escapeHtml(code);
}

export async function codeDocument(text: string, language: string, scheme: CodeScheme): Promise<string> {
  const [css, body] = await Promise.all([themeCss(scheme), highlight(pretty(text, language), language)]);
  // The <pre> fills the viewport so the whole capture is the theme's background, not just the code's box. A combo
  // theme (`github`) draws its light variant: its dark one needs a dark class on an ancestor, which Microlink's page
  // does not set either. No border: automad's themes frame the <pre>, which Microlink's reset removes.
  return `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>${css}</style>
<style>html,body{margin:0;padding:0;min-height:100%}pre[class*=language-]{margin:0;border:0;border-radius:0;min-height:100vh;box-sizing:border-box;overflow:visible}</style>
</head><body><pre class="language-${language}"><code class="language-${language}">${body}</code></pre></body></html>`;
}

/** The source of a text document as Chromium shows it: the text of its one <pre>, or of the body. */
const DOCUMENT_TEXT = `() => { const pre = document.querySelector('body pre'); return pre ? pre.textContent : (document.body ? document.body.innerText : ''); }`;

/** Replaces the loaded text document with its highlighted view, in the same page, before the capture. */
export async function showCode(open: OpenPage, language: string, scheme: CodeScheme, budget: Budget): Promise<void> {
  const { page } = open;
  open.phase = 'while highlighting the code';
  const text = String(await page.evaluate(`(${DOCUMENT_TEXT})()`));
  const html = await codeDocument(text, language, scheme);
  // setContent writes the document through script; the CSP above keeps the new document itself script-free.
  await page.setJavaScriptEnabled(true);
  // A text document stays one when written into: the highlighted view needs a fresh HTML document.
  await page.goto('about:blank', { timeout: Math.max(1, budget.remaining()) });
  await page.setContent(html, { waitUntil: 'load', timeout: Math.max(1, budget.remaining()) });
}
