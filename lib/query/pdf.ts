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
  };
}
