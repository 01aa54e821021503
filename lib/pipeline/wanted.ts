/**
 * Which parts of `data` the answer can show. `embed=screenshot.url` shows the screenshot alone, so extraction
 * and pings would be work nobody sees; `filter=title,image` keeps two fields. The envelope's `statusCode`,
 * `redirects` and `headers` come with whatever loads the page, so they need no step of their own.
 */
import type { MetaField } from '../extract/index.ts';
import type { Options } from '../query/options.ts';
import type { Wanted } from './context.ts';

export function wantedOutput(options: Options): Wanted {
  const requested = metaFields(options);
  const paths = options.embed !== undefined ? [options.embed] : options.filter;
  const shows = (name: string) => paths === undefined || paths.some((path) => path.split('.', 1)[0] === name);
  return {
    fields: requested.filter(shows),
    screenshot: options.screenshot !== false && shows('screenshot'),
    pdf: options.pdf !== false && shows('pdf'),
    iframe: options.iframe !== false && shows('iframe'),
    technologies: options.insights !== false && options.insights.technologies && shows('insights'),
  };
}

function metaFields(options: Options): MetaField[] {
  if (options.meta === false) return [];
  const extra: MetaField[] = [...(options.audio ? ['audio' as const] : []), ...(options.video ? ['video' as const] : [])];
  return [...new Set([...options.meta.fields, ...extra])];
}
