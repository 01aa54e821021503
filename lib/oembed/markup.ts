/** Markup Glance writes itself from values it was given: every attribute value escaped, nothing passed through raw. */

const escapeAttribute = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** ` name="value"` for each attribute (a bare ` name` for `true`), in the order given. */
export const attributesOf = (attributes: Iterable<readonly [string, string | true]>): string =>
  [...attributes].map(([name, value]) => (value === true ? ` ${name}` : ` ${name}="${escapeAttribute(value)}"`)).join('');
