/**
 * SVG size from the root element's attributes (SVG 2 §8.2): `width` and `height` when both are absolute
 * lengths, else the `viewBox`, scaled to whichever of the two is given. Percentages and a missing viewBox leave
 * the size unknown. The root is searched for past an XML prolog, comments and a DOCTYPE with entities, which
 * can push it well beyond the first kilobyte of real files.
 */

/** CSS px per unit (CSS Values 4 §6.2); em/ex at the 16px default font. */
const PX_PER: Readonly<Record<string, number>> = {
  '': 1, px: 1, pt: 96 / 72, pc: 16, in: 96, cm: 96 / 2.54, mm: 96 / 25.4, q: 96 / 101.6, em: 16, ex: 8,
};

/** A number and its unit; no two quantifiers can share a character, so a failing value costs one pass. */
const LENGTH = /^([+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)\s*([a-z]*)$/i;
/** The root's start tag, tried at one position (sticky). */
const SVG_TAG = /<svg(?:\s(?:[^>"']|"[^"]*"|'[^']*')*)?\/?>/y;
const DOCTYPE = /<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/iy;

function length(value: string | undefined): number | undefined {
  const match = value === undefined ? null : LENGTH.exec(value.trim());
  const factor = match ? PX_PER[match[2]!.toLowerCase()] : undefined;
  if (!match || factor === undefined) return undefined;
  const px = Number(match[1]) * factor;
  return px > 0 ? px : undefined;
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return match ? (match[1] ?? match[2]) : undefined;
}

export function svgSize(bytes: Buffer): { width: number; height: number } | undefined {
  const tag = rootTag(bytes.toString('utf8'));
  if (!tag) return undefined;
  const width = length(attribute(tag, 'width'));
  const height = length(attribute(tag, 'height'));
  if (width && height) return { width: Math.round(width), height: Math.round(height) };
  const box = attribute(tag, 'viewBox')?.trim().split(/[\s,]+/).map(Number);
  const [boxWidth, boxHeight] = [box?.[2], box?.[3]];
  if (box?.length !== 4 || !boxWidth || !boxHeight || boxWidth < 0 || boxHeight < 0) return undefined;
  if (width) return { width: Math.round(width), height: Math.round((width * boxHeight) / boxWidth) };
  if (height) return { width: Math.round((height * boxWidth) / boxHeight), height: Math.round(height) };
  return { width: Math.round(boxWidth), height: Math.round(boxHeight) };
}

/**
 * The root's start tag: the first `<svg` outside comments and the DOCTYPE (whose internal subset can mention
 * "<svg"). Found with indexOf and regexes tried at one position each, so a hostile file costs one pass: scanning
 * with unanchored lazy regexes was quadratic in repeated unclosed `<!--` or `<!DOCTYPE [` openings.
 */
function rootTag(text: string): string | undefined {
  let at = 0;
  let doctypeSeen = false;
  for (;;) {
    const open = text.indexOf('<', at);
    if (open === -1) return undefined;
    if (text.startsWith('<!--', open)) {
      const end = text.indexOf('-->', open + 4);
      if (end === -1) return undefined;
      at = end + 3;
    } else if (!doctypeSeen && text.startsWith('<!', open) && /^<!doctype/i.test(text.slice(open, open + 9))) {
      doctypeSeen = true;
      DOCTYPE.lastIndex = open;
      at = DOCTYPE.test(text) ? DOCTYPE.lastIndex : open + 2;
    } else if (text.startsWith('<svg', open) && /[\s/>]/.test(text[open + 4] ?? '')) {
      SVG_TAG.lastIndex = open;
      return SVG_TAG.exec(text)?.[0];
    } else {
      at = open + 1;
    }
  }
}
