/**
 * The technology rules Glance ships: enthec/webappanalyzer's fingerprints (GPL-3.0, its LICENSE beside them) at the
 * commit source.json names, kept in this folder as published (one file per initial letter) and refreshed only on
 * purpose (scripts/refresh-technologies.ts). Read from disk on first use, so the 3 MB stay out of every bundle and
 * every cold start; the deployed function carries the folder beside its chunks (stacks/bundling.ts,
 * FUNCTION_FILES), where this same relative address finds it.
 */
import { readdirSync, readFileSync } from 'node:fs';

export const RULES_DIR = new URL('./webappanalyzer/', import.meta.url);

/** Where the rules come from: the repository and the commit they were copied at. */
export interface RulesSource {
  readonly repository: string;
  readonly commit: string;
  /** The commit's date, ISO 8601. */
  readonly committed: string;
}

export interface Rules {
  readonly source: RulesSource;
  readonly categories: unknown;
  /** Every technology by name, the letters' files merged. */
  readonly technologies: Record<string, unknown>;
}

const readJson = (path: string, base: URL = RULES_DIR): unknown => JSON.parse(readFileSync(new URL(path, base), 'utf8'));

export function readRules(): Rules {
  const letters = new URL('technologies/', RULES_DIR);
  const technologies: Record<string, unknown> = {};
  for (const file of readdirSync(letters).filter((name) => name.endsWith('.json')).sort()) {
    Object.assign(technologies, readJson(file, letters));
  }
  return { source: readJson('source.json') as RulesSource, categories: readJson('categories.json'), technologies };
}
