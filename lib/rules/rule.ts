/**
 * The shape of a custom `data` rule (Microlink's MQL rule), as the query reads it (lib/query/data-rules.ts) and the
 * rules run it (lib/rules): here, so the rules need nothing of the query's module.
 */
/** Microlink's rule types (https://microlink.io/docs/mql/data/type). */
export const DATA_TYPES = [
  'audio',
  'author',
  'auto',
  'boolean',
  'date',
  'description',
  'email',
  'image',
  'ip',
  'lang',
  'logo',
  'number',
  'object',
  'publisher',
  'regexp',
  'string',
  'title',
  'url',
  'video',
] as const;
export type DataType = (typeof DATA_TYPES)[number];

/** One extraction rule (Microlink's MQL rule). */
export interface DataRule {
  /** CSS selectors tried in order; empty means the whole page. */
  readonly selector: readonly string[];
  /** True when given as `selectorAll`: every match is collected into a list. */
  readonly all: boolean;
  /** Attributes (or `html`, `outerHTML`, `text`, `markdown`, `val`, `tagName`, `nodeName`, `json`) tried in order;
   *  empty when `rules` is set. */
  readonly attr: readonly string[];
  /** Nested rules, applied inside each match (`attr` given as an object). */
  readonly rules: DataRules | undefined;
  /** Accepted value types, tried in order. */
  readonly type: readonly DataType[];
  /** JavaScript (an expression or a function's source) run in the rendered page; its result is the raw value. */
  readonly evaluate: string | undefined;
}

/** Field name → its rules, first to last fallback (at least one). */
export type DataRules = Readonly<Record<string, readonly DataRule[]>>;
