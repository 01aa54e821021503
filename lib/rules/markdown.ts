/**
 * `attr=markdown` with mdream's JavaScript engine (harlan-zw/mdream, `@mdream/js`): a maintained HTML→Markdown
 * converter with CommonMark-safe escaping, GFM tables and fenced code. It reads the HTML in one streaming pass,
 * 20–30× faster than Turndown, which built a second DOM with domino (Wikipedia's 0.7 MB main content: ~45 ms against
 * ~1.5 s). The `mdream` package itself is a native (NAPI) addon chosen per platform at install time: the JS engine
 * bundles into the Lambda function from any deploying machine.
 * Links and images are written absolute, resolved against the page's base (mdream's `origin`), so the Markdown
 * stands on its own away from the page; the base is resolved by us first, so `<base href>` is honoured.
 */
import { htmlToMarkdown, type MdreamOptions } from '@mdream/js';
import type { AnyNode } from 'domhandler';
import { converterHtml } from './html.ts';

/**
 * Blocks that mdream runs into the text around them (`<aside>Side</aside><footer>Foot</footer>` was "Side Foot",
 * `a<form><label>Name</label></form>` "aName"), where a browser draws a block and `attr=text` separates words: the
 * whole page's Markdown holds every aside, footer and form a page has (lib/rules/page.ts).
 */
const BLOCK: [number, number] = [2, 2];
const TAG_OVERRIDES = { aside: { spacing: BLOCK }, footer: { spacing: BLOCK }, form: { spacing: BLOCK }, fieldset: { spacing: BLOCK } };

/** Markdown of HTML from the page (lib/rules/page.ts: without what is never prose). */
export function markdownOf(html: string, pageBase: string): string {
  const options: MdreamOptions = { origin: pageBase, plugins: { tagOverrides: TAG_OVERRIDES } };
  return htmlToMarkdown(html, options).trim();
}

/** Markdown of the nodes given: copies without what is never prose (lib/rules/page.ts), free to change. */
export function toMarkdown(nodes: AnyNode | AnyNode[], pageBase: string): string {
  return markdownOf(converterHtml(nodes, []), pageBase);
}
