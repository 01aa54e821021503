/**
 * What the answer carries: `embed` (one field instead of the envelope, docs/CONTRACT.md §6; `stream` is
 * Microlink's legacy name for it) with its one sub-key `proxy`, and `filter`.
 */
import { invalidParam } from '../errors.ts';
import type { EmbedOptions } from './options.ts';
import { child, flag, join, list, type Found } from './read.ts';
import type { QueryNode } from './tree.ts';

// Keys of `data` as the response spells them (`size_pretty`, `background_color`), and list indices.
const PATH = /^[\w$-]+(\.[\w$-]+)*$/;
const POLLUTING = /(^|\.)(__proto__|constructor|prototype)(\.|$)/;
const isPath = (value: string): boolean => PATH.test(value) && !POLLUTING.test(value);

export interface OutputOptions {
  readonly embed: EmbedOptions | undefined;
  readonly filter: readonly string[] | undefined;
}

function embedParam(root: QueryNode) {
  const embed = child(root, 'embed');
  const stream = child(root, 'stream');
  if (embed && stream) throw invalidParam('stream', 'the legacy name of `embed`: give one of them, not both');
  return embed ?? stream;
}

const EMBED_PATH = 'a dot path into data, such as screenshot.url';

/**
 * `embed=<path>`, and beside it `embed.proxy`: the key holds a value and one sub-key, so it is read here rather
 * than with `text`, which takes no sub-keys. Any other sub-key is refused: a misspelt `embed.prxy` silently
 * answering the 302 it was meant to replace would be worse than an error.
 */
function readEmbed({ node, name }: Found): EmbedOptions {
  const path = node.value?.trim() ?? '';
  for (const key of node.children.keys()) {
    if (key !== 'proxy') throw invalidParam(join(name, key), `not an option of \`${name}\`, whose only sub-key is \`${name}.proxy\``);
  }
  if (node.value === undefined) throw invalidParam(name, `${EMBED_PATH}; \`${name}.proxy\` needs it beside`);
  if (!isPath(path)) throw invalidParam(name, EMBED_PATH);
  const proxy = node.children.get('proxy');
  return { path, proxy: proxy ? flag({ node: proxy, name: join(name, 'proxy') }) : false };
}

export function readOutput(root: QueryNode): OutputOptions {
  const embedFound = embedParam(root);
  const embed = embedFound && readEmbed(embedFound);

  const filterFound = child(root, 'filter');
  let filter: string[] | undefined;
  if (filterFound) {
    filter = [...new Set(list(filterFound, true))];
    if (!filter.every(isPath)) {
      throw invalidParam(filterFound.name, 'a comma-separated list of dot paths into data, such as title,image.url');
    }
  }
  return { embed, filter };
}
