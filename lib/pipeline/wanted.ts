/**
 * Which parts of `data` the answer can show. A custom rule named like a default field replaces it, so that field
 * is not extracted; rules run only for the fields the output shows, and their `evaluate` sources need Chromium. `embed=screenshot.url` shows the screenshot alone, so extraction
 * and pings would be work nobody sees; `filter=title,image` keeps two fields. The envelope's `statusCode`,
 * `redirects` and `headers` come with whatever loads the page, so they need no step of their own.
 */
import type { MetaField } from '../data/fields.ts';
import type { DataRule, DataRules, Options } from '../query/options.ts';
import type { Wanted } from './context.ts';

export function wantedOutput(options: Options): Wanted {
  const requested = metaFields(options);
  const paths = options.embed !== undefined ? [options.embed.path] : options.filter;
  const shows = (name: string) => paths === undefined || paths.some((path) => path.split('.', 1)[0] === name);
  const rules = options.data && Object.fromEntries(Object.entries(options.data).filter(([name]) => shows(name)));
  const hasRules = rules !== undefined && Object.keys(rules).length > 0;
  return {
    fields: requested.filter((field) => shows(field) && !(options.data && Object.hasOwn(options.data, field))),
    rules: hasRules ? rules : undefined,
    evaluate: hasRules ? [...new Set(evaluateSources(rules))] : [],
    screenshot: options.screenshot !== false && shows('screenshot'),
    pdf: options.pdf !== false && shows('pdf'),
    iframe: options.iframe !== false && shows('iframe'),
    technologies: options.insights !== false && options.insights.technologies && shows('insights'),
    lighthouse: (options.insights !== false && shows('insights') && options.insights.lighthouse) || false,
  };
}

function evaluateSources(rules: DataRules): string[] {
  return Object.values(rules).flatMap((fallbacks: readonly DataRule[]) =>
    fallbacks.flatMap((rule) => [...(rule.evaluate !== undefined ? [rule.evaluate] : []), ...(rule.rules ? evaluateSources(rule.rules) : [])]),
  );
}

function metaFields(options: Options): MetaField[] {
  if (options.meta === false) return [];
  const extra: MetaField[] = [...(options.audio ? ['audio' as const] : []), ...(options.video ? ['video' as const] : [])];
  return [...new Set([...options.meta.fields, ...extra])];
}
