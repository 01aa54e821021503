/**
 * Content negotiation on the `Accept` request header (RFC 9110 §12.5.1), for the one place Glance answers two
 * representations: `GET /` without a query (lib/http/playground/).
 */

/** Media ranges from the most specific to the least: the weight of a type is that of its most specific range. */
const SPECIFICITY = { exact: 3, subtype: 2, any: 1 } as const;

/** RFC 9110 §12.4.2: `q=` is 0 to 1 with at most three decimals; a range with any other `q` is ignored. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

function specificity(range: string, type: string): number {
  if (range === type) return SPECIFICITY.exact;
  if (range === '*/*') return SPECIFICITY.any;
  const slash = type.indexOf('/');
  return range === `${type.slice(0, slash)}/*` ? SPECIFICITY.subtype : 0;
}

/**
 * How much the header wants `type` (lower case `type/subtype`): the q of the most specific range matching it, 0
 * when none does. No header, or an empty one, accepts everything alike (weight 1).
 */
export function acceptWeight(accept: string | undefined, type: string): number {
  if (accept === undefined || accept.trim() === '') return 1;
  let best = 0;
  let weight = 0;
  for (const entry of accept.split(',')) {
    const [rangePart = '', ...params] = entry.split(';');
    const rank = specificity(rangePart.trim().toLowerCase(), type);
    if (rank <= best) continue;
    const q = params.map((param) => param.trim()).find((param) => /^q=/i.test(param));
    const value = q === undefined ? '1' : q.slice(2).trim();
    if (!QVALUE.test(value)) continue;
    best = rank;
    weight = Number(value);
  }
  return weight;
}

/**
 * True when the caller asks for HTML before JSON: a browser's navigation (`text/html,…,*\/*;q=0.8`). A tie, `*\/*`
 * (curl, fetch(), the Microlink clients) or no header at all keeps the JSON API's answer.
 */
export function prefersHtml(accept: string | undefined): boolean {
  const html = acceptWeight(accept, 'text/html');
  return html > 0 && html > acceptWeight(accept, 'application/json');
}
