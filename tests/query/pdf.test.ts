import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PAPER_INCHES, PDF_FORMATS } from '../../lib/query/options.ts';
import { parse, rejects } from './expect-error.ts';

const pdf = (query: string) => {
  const options = parse(query).pdf;
  assert.ok(options, 'pdf should be on');
  return options;
};

const all = (length: string) => ({ top: length, right: length, bottom: length, left: length });

describe('pdf', () => {
  test('off by default; on with Microlink defaults', () => {
    assert.equal(parse('').pdf, false);
    assert.deepEqual(pdf('pdf'), {
      format: 'A4',
      margin: all('0.35cm'),
      scale: 0.6,
      landscape: false,
      pageRanges: undefined,
      printBackground: true,
      width: undefined,
      height: undefined,
    });
  });

  test('reads every option', () => {
    assert.deepEqual(
      pdf('pdf.format=letter&pdf.margin=4mm&pdf.scale=1.5&pdf.landscape&pdf.pageRanges=1-5%2C+8%2C+11-13&pdf.printBackground=false'),
      { format: 'Letter', margin: all('4mm'), scale: 1.5, landscape: true, pageRanges: '1-5, 8, 11-13', printBackground: false, width: undefined, height: undefined },
    );
    assert.equal(pdf('pdf.scale=.5').scale, 0.5);
  });

  test('a margin object changes only the sides given', () => {
    assert.deepEqual(pdf('pdf.margin.top=1in&pdf.margin.left=20px').margin, {
      top: '1in',
      right: '0.35cm',
      bottom: '0.35cm',
      left: '20px',
    });
  });

  test('refuses invalid options, naming each', () => {
    rejects('pdf.format=B5', 'EINVALQUERY', 'pdf.format');
    rejects('pdf.margin=4em', 'EINVALQUERY', 'pdf.margin');
    rejects('pdf.margin.top=-1mm', 'EINVALQUERY', 'pdf.margin.top');
    rejects('pdf.margin=1mm&pdf.margin.top=2mm', 'EINVALQUERY', 'pdf.margin');
    rejects('pdf.scale=0.05', 'EINVALQUERY', 'pdf.scale');
    rejects('pdf.scale=3', 'EINVALQUERY', 'pdf.scale');
    rejects('pdf.landscape=sideways', 'EINVALQUERY', 'pdf.landscape');
    rejects('pdf.pageRanges=first', 'EINVALQUERY', 'pdf.pageRanges');
    rejects('pdf.page_ranges=1-2-3', 'EINVALQUERY', 'pdf.pageRanges');
  });

  test('width and height: a custom paper size, each side a print length up to 200 inches', () => {
    const custom = pdf('pdf.width=640px&pdf.height=480');
    assert.deepEqual([custom.width, custom.height], ['640px', '480']);
    assert.deepEqual([pdf('pdf.width=10cm').width, pdf('pdf.width=10cm').height], ['10cm', undefined]);
    assert.equal(pdf('pdf.height=200in').height, '200in');
    for (const bad of ['0', '0px', '0.5px', '201in', '5081mm', '-1in', '10em', 'wide', '1e3px']) {
      rejects(`pdf.width=${bad}`, 'EINVALQUERY', 'pdf.width');
    }
    rejects('pdf.height=', 'EINVALQUERY', 'pdf.height');
  });

  test("the formats' sizes are Puppeteer's", async () => {
    // Exported by the package (lib/puppeteer/common/PDFOptions.js) though its public types leave it out.
    const { paperFormats } = (await import('puppeteer-core')) as unknown as { paperFormats: Record<string, { in: unknown }> };
    for (const format of PDF_FORMATS) assert.deepEqual(PAPER_INCHES[format], paperFormats[format.toLowerCase()]?.in, format);
  });
});

describe('pdf: legacy flat keys (Microlink\'s own examples: `&pdf&scale=1&margin=0.4cm`)', () => {
  test('apply to the PDF when it is on', () => {
    assert.deepEqual(pdf('pdf&scale=1&margin=0.4cm&format=Letter&landscape&pageRanges=2-3&printBackground=false&width=5in&height=7in'), {
      format: 'Letter',
      margin: all('0.4cm'),
      scale: 1,
      landscape: true,
      pageRanges: '2-3',
      printBackground: false,
      width: '5in',
      height: '7in',
    });
    assert.deepEqual(pdf('pdf&margin.top=1cm').margin, { ...all('0.35cm'), top: '1cm' });
  });

  test('do not turn the PDF on, and are ignored when it is off', () => {
    assert.equal(parse('scale=1&margin=0.4cm').pdf, false);
  });

  test('agreeing with the nested form is fine; disagreeing, or invalid, is refused by name', () => {
    assert.equal(pdf('pdf.scale=1&scale=1').scale, 1);
    rejects('pdf.scale=1&scale=2', 'EINVALQUERY', 'pdf.scale');
    rejects('pdf&scale=9', 'EINVALQUERY', 'scale');
    rejects('pdf&margin.middle=1cm', 'EINVALQUERY', 'margin.middle');
  });
});
