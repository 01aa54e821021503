/** `pdf`: Chromium's print options under Microlink's names and defaults. */
import { invalidParam } from '../errors.ts';
import { isPrintLength } from './css.ts';
import { DEFAULTS, PDF_FORMATS, type PdfMargin, type PdfOptions } from './options.ts';
import { child, feature, flagOf, numberIn, oneOf, scalar, text, type Found } from './read.ts';
import type { QueryNode } from './tree.ts';

const SIDES = ['top', 'right', 'bottom', 'left'] as const;
const LENGTH = 'a length with px, in, cm or mm, such as 4mm';

function length(found: Found): string {
  const value = scalar(found).trim();
  if (!isPrintLength(value)) throw invalidParam(found.name, LENGTH);
  return value;
}

function readMargin(found: Found | undefined): PdfMargin {
  const fallback = DEFAULTS.pdf.margin;
  if (!found) return { top: fallback, right: fallback, bottom: fallback, left: fallback };
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
  return { top: side('top'), right: side('right'), bottom: side('bottom'), left: side('left') };
}

/** Inches per unit of a print length (a bare number is px, as Chromium reads it). */
const INCHES: Readonly<Record<string, number>> = { px: 1 / 96, in: 1, cm: 1 / 2.54, mm: 1 / 25.4 };
/** 200 inches (5 m): past any paper, and well within what Chromium prints. */
const MAX_PAPER_INCHES = 200;
const PAPER = 'a length with px, in, cm or mm from 1px to 200in, such as 640px';

function paperSide(found: Found | undefined): string | undefined {
  if (!found) return undefined;
  const value = scalar(found).trim();
  const unit = /[a-z]+$/.exec(value)?.[0] ?? 'px';
  const inches = Number.parseFloat(value) * (INCHES[unit] ?? Number.NaN);
  if (!isPrintLength(value) || !(inches >= 1 / 96 && inches <= MAX_PAPER_INCHES)) throw invalidParam(found.name, PAPER);
  return value;
}

// Chromium's syntax: comma-separated pages or ranges, open at either end (`1-5, 8, 11-`).
const PAGE_RANGES = /^\s*(\d+\s*(-\s*\d*)?|-\s*\d+)(\s*,\s*(\d+\s*(-\s*\d*)?|-\s*\d+))*\s*$/;

export function readPdf(root: QueryNode): false | PdfOptions {
  const node = feature(child(root, 'pdf'), false);
  if (node === false) return false;

  const formatFound = child(node, 'format', 'pdf');
  const scaleFound = child(node, 'scale', 'pdf');
  const rangesFound = child(node, 'pageRanges', 'pdf');
  let pageRanges: string | undefined;
  if (rangesFound) {
    pageRanges = text(rangesFound);
    if (!PAGE_RANGES.test(pageRanges)) throw invalidParam(rangesFound.name, 'pages or ranges such as 1-5, 8, 11-13');
  }
  return {
    format: formatFound ? oneOf(formatFound, PDF_FORMATS) : DEFAULTS.pdf.format,
    margin: readMargin(child(node, 'margin', 'pdf')),
    scale: scaleFound ? numberIn(scaleFound, 0.1, 2) : DEFAULTS.pdf.scale,
    landscape: flagOf(node, 'landscape', false, 'pdf'),
    pageRanges,
    printBackground: flagOf(node, 'printBackground', DEFAULTS.pdf.printBackground, 'pdf'),
    width: paperSide(child(node, 'width', 'pdf')),
    height: paperSide(child(node, 'height', 'pdf')),
  };
}
