/**
 * Custom `data` rules as a job of the worker pool (lib/work/): the page's HTML is parsed into the rules' DOM where
 * the rules then run, so neither the parse nor a costly selector or value holds the main thread, and the request's
 * deadline can stop them. What crosses threads is the page's bytes in (moved, not copied) and the rules' values out.
 */
import type { DataRules } from './rule.ts';
import { fromUtf8Pieces } from '../text/pieces.ts';
import { buildDocument } from './dom.ts';
import { runRules, type RulesDeps } from './index.ts';

export interface RulesJob {
  readonly rules: DataRules;
  /** The loaded page's HTML, UTF-8 in pieces (lib/text/pieces.ts); undefined when what was loaded is not HTML
   *  (selectors then match nothing). */
  readonly html: readonly Uint8Array[] | undefined;
  /** The body of a page that is not HTML, for `attr=json`, as the HTML is. */
  readonly body: readonly Uint8Array[] | undefined;
  /** The page's final URL. */
  readonly url: string;
  /** Results of the rules' `evaluate` sources, from the rendered page. */
  readonly evaluated: ReadonlyMap<string, unknown> | undefined;
}

export function rulesJob(job: RulesJob, deps: RulesDeps): Promise<Record<string, unknown>> {
  const document = buildDocument(job.html ? fromUtf8Pieces(job.html) : '');
  const body = job.body && fromUtf8Pieces(job.body);
  return runRules(job.rules, { document, url: job.url, body, evaluated: job.evaluated }, deps);
}
