/**
 * What the answer carries: `embed` (one field instead of the envelope, docs/CONTRACT.md §6; `stream` is
 * Microlink's legacy name for it) and `filter`.
 */
import { invalidParam } from '../errors.ts';
import { child, list, text } from './read.ts';
import type { QueryNode } from './tree.ts';

// Keys of `data` as the response spells them (`size_pretty`, `background_color`), and list indices.
const PATH = /^[\w$-]+(\.[\w$-]+)*$/;
const POLLUTING = /(^|\.)(__proto__|constructor|prototype)(\.|$)/;
const isPath = (value: string): boolean => PATH.test(value) && !POLLUTING.test(value);

export interface OutputOptions {
  readonly embed: string | undefined;
  readonly filter: readonly string[] | undefined;
}

function embedParam(root: QueryNode) {
  const embed = child(root, 'embed');
  const stream = child(root, 'stream');
  if (embed && stream) throw invalidParam('stream', 'the legacy name of `embed`: give one of them, not both');
  return embed ?? stream;
}

export function readOutput(root: QueryNode): OutputOptions {
  const embedFound = embedParam(root);
  let embed: string | undefined;
  if (embedFound) {
    embed = text(embedFound, 'a dot path into data, such as screenshot.url');
    if (!isPath(embed)) throw invalidParam(embedFound.name, 'a dot path into data, such as screenshot.url');
  }

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
