/**
 * `data.<field>.evaluate`: a caller's JavaScript run in the rendered page, never in Node. The source is an
 * expression or a function's source (called with no arguments, awaited); its result comes back as JSON, so
 * only JSON-serialisable values cross, bounded in size in the page before anything is sent and in time here.
 * Runtime.evaluate is not subject to the page's CSP. A source that throws, times out or answers too much
 * yields no value (its rule's fallback gets its turn).
 */
import type { Page } from 'puppeteer-core';
import { MAX_EVALUATE_RESULT_CHARS } from '../rules/limits.ts';
import { EVALUATE_TIME_LIMIT_MS } from '../time/limits.ts';
import { Budget } from '../time/budget.ts';
import { parseJson } from '../json.ts';

const wrap = (source: string): string =>
  `(async () => {
  const value = (${source}\n);
  const result = typeof value === 'function' ? await value() : await value;
  const json = JSON.stringify(result);
  return json === undefined || json.length > ${MAX_EVALUATE_RESULT_CHARS} ? null : json;
})()`;

async function evaluateOne(page: Page, source: string, budget: Budget): Promise<unknown> {
  const limit = budget.slice(EVALUATE_TIME_LIMIT_MS);
  try {
    const json = await limit.race(page.evaluate(wrap(source)), () => null);
    return typeof json === 'string' ? parseJson(json) : undefined;
  } catch {
    return undefined;
  }
}

/** Each source's result (undefined when it gave none), run one after another in the same page. */
export async function evaluateAll(page: Page, sources: readonly string[], budget: Budget): Promise<Map<string, unknown>> {
  const results = new Map<string, unknown>();
  for (const source of sources) {
    if (budget.expired) break;
    results.set(source, await evaluateOne(page, source, budget));
  }
  return results;
}
