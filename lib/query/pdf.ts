/**
 * `pdf`: Chromium's print options under Microlink's names and defaults, including Microlink's legacy flat keys
 * (`&pdf&scale=1&margin=0.4cm`, as its own pdf examples write them): top-level `format`, `margin`, `scale`,
 * `landscape`, `pageRanges`, `printBackground`, `width` and `height` apply to the PDF when it is on, as the flat
 * screenshot keys do (screenshot.ts).
 */
import { invalidParam } from '../errors.ts';
import { isPrintLength } from './css.ts';
import { DEFAULTS, PDF_FORMATS, type PdfMargin, type PdfOptions } from './options.ts';
import { child, feature, flag, legacyOption, numberIn, oneOf, onlyKeys, scalar, text, type Found } from './read.ts';
import type { QueryNode } from './tree.ts';

const SIDES = ['top', 'right', 'bottom', 'left'] as const;
const LENGTH = 'a length with px, in, cm or mm, such as 4mm';

function length(found: Found): string {
  const value = scalar(found).trim();
  if (!isPrintLength(value)) throw invalidParam(found.name, LENGTH);
  return value;
}

const fallback = DEFAULTS.pdf.margin;

function readMargin(found: Found): PdfMargin {
  if (found.node.children.size === 0) {
    const all = length(found);
    return { top: all, right: all, bottom: all, left: all };
  }
  if (found.node.value !== undefined) {
    throw invalidParam(found.name, `either ${LENGTH}, or per-side sub-keys, not both`);
  }
  const side = (key: (typeof SIDES)[number]): string => {
    const given = child(found.node, key, found.name);
    return given ? length(given) : fallback;
  };
  const margin = { top: side('top'), right: side('right'), bottom: side('bottom'), left: side('left') };
  onlyKeys(found, SIDES);
  return margin;
}

/** Inches per unit of a print length (a bare number is px, as Chromium reads it). */
const INCHES: Readonly<Record<string, number>> = { px: 1 / 96, in: 1, cm: 1 / 2.54, mm: 1 / 25.4 };
/** 200 inches (5 m): past any paper, and well within what Chromium prints. */
const MAX_PAPER_INCHES = 200;
const PAPER = 'a length with px, in, cm or mm from 1px to 200in, such as 640px';

function paperSide(found: Found): string {
  const value = scalar(found).trim();
  const unit = /[a-z]+$/.exec(value)?.[0] ?? 'px';
  const inches = Number.parseFloat(value) * (INCHES[unit] ?? Number.NaN);
  if (!isPrintLength(value) || !(inches >= 1 / 96 && inches <= MAX_PAPER_INCHES)) throw invalidParam(found.name, PAPER);
  return value;
}

// Chromium's syntax: comma-separated pages or ranges, open at either end (`1-5, 8, 11-`).
const PAGE_RANGES = /^\s*(\d+\s*(-\s*\d*)?|-\s*\d+)(\s*,\s*(\d+\s*(-\s*\d*)?|-\s*\d+))*\s*$/;

function pageRanges(found: Found): string {
  const value = text(found);
  if (!PAGE_RANGES.test(value)) throw invalidParam(found.name, 'pages or ranges such as 1-5, 8, 11-13');
  return value;
}

/** Every sub-key of `pdf`; `path` is refused by name before (index.ts). */
const OPTIONS = ['format', 'margin', 'scale', 'landscape', 'pageRanges', 'printBackground', 'width', 'height', 'path'];

export function readPdf(root: QueryNode): false | PdfOptions {
  const node = feature(child(root, 'pdf'), false);
  if (node === false) return false;
  const found = { node, name: 'pdf' };
  onlyKeys(found, OPTIONS);
  const option = <T>(key: string, read: (found: Found) => T): T | undefined => legacyOption(root, found, key, read);

  return {
    format: option('format', (given) => oneOf(given, PDF_FORMATS)) ?? DEFAULTS.pdf.format,
    margin: option('margin', readMargin) ?? { top: fallback, right: fallback, bottom: fallback, left: fallback },
    scale: option('scale', (given) => numberIn(given, 0.1, 2)) ?? DEFAULTS.pdf.scale,
    landscape: option('landscape', flag) ?? false,
    pageRanges: option('pageRanges', pageRanges),
    printBackground: option('printBackground', flag) ?? DEFAULTS.pdf.printBackground,
    width: option('width', paperSide),
    height: option('height', paperSide),
  };
}
