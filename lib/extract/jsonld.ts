/**
 * JSON-LD blocks → one flat list of nodes (arrays and `@graph` unwrapped, `{"@id"}` references followed), with
 * path lookups that walk through arrays, the way schema.org data is written in practice.
 */
import { withinDepth } from '../json.ts';
import { MAX_VALUE } from './facts.ts';

export type Json = string | number | boolean | null | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export interface JsonLd {
  /** Top-level nodes in document order. */
  readonly nodes: readonly JsonObject[];
  readonly byId: ReadonlyMap<string, JsonObject>;
}

export function parseJsonLd(blocks: readonly string[]): JsonLd {
  const nodes: JsonObject[] = [];
  const byId = new Map<string, JsonObject>();
  const visit = (value: Json | undefined, depth: number): void => {
    if (depth > 4 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const graph = value['@graph'];
    if (graph !== undefined) {
      visit(graph, depth + 1);
      if (Object.keys(value).every((key) => key.startsWith('@'))) return;
    }
    nodes.push(value);
    indexIds(value, byId, 0);
    // A WebPage often carries the article itself as its main entity.
    visit(value['mainEntity'], depth + 1);
  };
  for (const block of blocks) visit(parseLenient(block), 0);
  return { nodes, byId };
}

/** Every object carrying an `@id` and more than the reference itself, nested ones included. */
function indexIds(value: Json, byId: Map<string, JsonObject>, depth: number): void {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) indexIds(item, byId, depth + 1);
    return;
  }
  const id = value['@id'];
  if (typeof id === 'string' && Object.keys(value).length > 1 && !byId.has(id)) byId.set(id, value);
  for (const key in value) if (!key.startsWith('@')) indexIds(value[key]!, byId, depth + 1);
}

/** Publishers break JSON-LD in a few recurring ways: raw newlines in strings, trailing commas, comment wrappers. */
function parseLenient(text: string): Json | undefined {
  if (!withinDepth(text)) return undefined;
  try {
    return JSON.parse(text) as Json;
  } catch {
    const repaired = text
      .replace(/^\s*(?:<!--|\/\/\s*<!\[CDATA\[|<!\[CDATA\[)/, '')
      .replace(/(?:-->|\/\/\s*\]\]>|\]\]>)\s*$/, '')
      // Control characters are invalid inside JSON strings and insignificant outside them.
      .replace(/[\u0000-\u001f]+/g, ' ')
      .replace(/,\s*([}\]])/g, '$1')
      .trim();
    try {
      return JSON.parse(repaired) as Json;
    } catch {
      return undefined;
    }
  }
}

/** `@type` as bare names: `"http://schema.org/NewsArticle"` and `["schema:Article"]` both count. */
export function typesOf(node: JsonObject): string[] {
  const type = node['@type'];
  const list = Array.isArray(type) ? type : [type];
  const names: string[] = [];
  for (const item of list) {
    if (typeof item === 'string') names.push(item.replace(/^.*[/:#]/, ''));
  }
  return names;
}

export function deref(ld: JsonLd, value: Json | undefined): Json | undefined {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const id = value['@id'];
    if (typeof id === 'string' && Object.keys(value).length === 1) return ld.byId.get(id) ?? value;
  }
  return value;
}

/** Values at `path` under `node`, arrays flattened at every step and (unless `follow` is false) references
 *  followed. */
export function valuesAt(ld: JsonLd, node: Json | undefined, path: readonly string[], follow = true): Json[] {
  const out: Json[] = [];
  const walk = (value: Json | undefined, step: number): void => {
    const current = follow ? deref(ld, value) : value;
    if (current === undefined || current === null) return;
    if (Array.isArray(current)) {
      for (const item of current) walk(item, step);
      return;
    }
    if (step === path.length) {
      out.push(current);
      return;
    }
    if (typeof current === 'object') walk(current[path[step]!], step + 1);
  };
  walk(node, 0);
  return out;
}

/** A string within MAX_VALUE; a longer one is read as absent. */
const bounded = (text: string): string | undefined => (text.length > MAX_VALUE ? undefined : text);

/** A string a reader would see for a value: the string itself, a number, or an object's `name`. */
export function asText(value: Json): string | undefined {
  if (typeof value === 'string') return bounded(value);
  if (typeof value === 'number') return String(value);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const name = value['name'];
    if (typeof name === 'string') return bounded(name);
  }
  return undefined;
}

/** A URL-ish value: a string, or an ImageObject/MediaObject's `url` / `contentUrl`. */
export function asUrl(value: Json): string | undefined {
  if (typeof value === 'string') return bounded(value);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const key of ['url', 'contentUrl']) {
      const url = value[key];
      if (typeof url === 'string') return bounded(url);
      if (Array.isArray(url) && typeof url[0] === 'string') return bounded(url[0]);
    }
  }
  return undefined;
}
