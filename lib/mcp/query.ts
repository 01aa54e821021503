/**
 * A tool's arguments → the API's query string, as @microlink/mql writes options: nested objects become dotted keys
 * (`{ screenshot: { fullPage: true } }` → `screenshot.fullPage=true`), a flag with options is turned on by them, and
 * a list is one JSON value (`data.title=[{"selector":"h1"},…]`, docs/CONTRACT.md §2 `data`). The query parser then
 * checks every value as it checks the API's, with the same codes.
 */
type Value = string | number | boolean | null | undefined | readonly unknown[] | { readonly [key: string]: unknown };

function add(query: URLSearchParams, key: string, value: Value): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) return query.append(key, JSON.stringify(value));
  if (typeof value !== 'object') return query.append(key, String(value));
  for (const [name, inner] of Object.entries(value)) add(query, `${key}.${name}`, inner as Value);
}

/** `fixed` are the tool's own settings (`screenshot=true`), set after the caller's and winning over them. */
export function queryOf(args: Readonly<Record<string, unknown>>, fixed: Readonly<Record<string, string>> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) add(query, name, value as Value);
  for (const [name, value] of Object.entries(fixed)) {
    query.delete(name);
    query.append(name, value);
  }
  return query.toString();
}
