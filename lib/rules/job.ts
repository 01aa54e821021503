/**
 * Custom `data` rules as a job of the worker pool (lib/work/): the page's HTML is parsed into the rules' DOM where
 * the rules then run, so neither the parse nor a costly selector or value holds the main thread, and the request's
 * deadline can stop them. What crosses threads is the HTML string in and the rules' values out.
 */
import type { DataRules } from '../query/options.ts';
import { buildDocument } from './dom.ts';
import { runRules, type RulesDeps } from './index.ts';

export interface RulesJob {
  readonly rules: DataRules;
  /** The loaded page's HTML; undefined when what was loaded is not HTML (selectors then match nothing). */
  readonly html: string | undefined;
  /** The body of a page that is not HTML, for `attr=json`. */
  readonly body: string | undefined;
  /** The page's final URL. */
  readonly url: string;
  /** Results of the rules' `evaluate` sources, from the rendered page. */
  readonly evaluated: ReadonlyMap<string, unknown> | undefined;
}

export function rulesJob(job: RulesJob, deps: RulesDeps): Promise<Record<string, unknown>> {
  const document = buildDocument(job.html ?? '');
  return runRules(job.rules, { document, url: job.url, body: job.body, evaluated: job.evaluated }, deps);
}
