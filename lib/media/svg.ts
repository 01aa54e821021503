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

function length(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^\s*([+]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*([a-z]*)\s*$/i.exec(value);
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
  const text = bytes.toString('utf8');
  // Comments and the DOCTYPE's internal subset can mention "<svg"; the root is the first one outside them.
  const bare = text.replace(/<!--[\s\S]*?-->/g, '').replace(/<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/i, '');
  const tag = /<svg(?:\s(?:[^>"']|"[^"]*"|'[^']*')*)?\/?>/.exec(bare)?.[0];
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
