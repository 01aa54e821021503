/** What an embedded rule field is, for its content type (`embed=content` of an `attr=markdown` rule is Markdown). */
import type { DataRules } from './rule.ts';

export type EmbedFormat = 'markdown' | 'html' | undefined;

/** The format of the rule field `path` addresses, when every fallback rule of it reads that format. */
export function embedFormat(rules: DataRules | undefined, path: string): EmbedFormat {
  const fallbacks = rules && !path.includes('.') && Object.hasOwn(rules, path) ? rules[path] : undefined;
  if (!fallbacks) return undefined;
  const formats = new Set(
    fallbacks.map((rule) => {
      if (rule.all || rule.rules || rule.evaluate !== undefined || rule.attr.length !== 1) return undefined;
      const attr = rule.attr[0];
      return attr === 'markdown' ? 'markdown' : attr === 'html' || attr === 'outerHTML' ? 'html' : undefined;
    }),
  );
  return formats.size === 1 ? [...formats][0] : undefined;
}
