/**
 * `filename` (issue 17): any caller text becomes a name safe on a disk, in a bucket key, in a URL and in a header —
 * or is refused when nothing nameable is left. Content-Disposition follows RFC 6266 with RFC 8187's filename*.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contentDisposition, MAX_NAME_BYTES, safeFileName } from '../../lib/storage/filename.ts';

describe('safeFileName', () => {
  test('plain names are kept; a stored type extension of the caller is dropped (the stored type adds its own)', () => {
    for (const [given, safe] of [
      ['invoice', 'invoice'],
      ['solar-system', 'solar-system'],
      ['invoice.pdf', 'invoice'],
      ['shot.PNG', 'shot'],
      ['report.pdf.png', 'report'],
      ['v1.2', 'v1.2'],
      ['notes.txt', 'notes.txt'],
      ['Résumé 报告', 'Résumé 报告'],
      ['😀', '😀'],
    ] as const) {
      assert.equal(safeFileName(given), safe, given);
    }
  });

  test('hostile names lose their separators, dot runs, controls, reserved characters and bidi overrides', () => {
    for (const [given, safe] of [
      ['../../etc/passwd', '_._etc_passwd'],
      ['..\\..\\windows\\win.ini', '_._windows_win.ini'],
      ['/absolute', '_absolute'],
      ['a\u0000b', 'a_b'],
      ['line\r\nbreak\ttab', 'line break tab'],
      ['a<b>c:d"e|f?g*h', 'a_b_c_d_e_f_g_h'],
      ['100%25', '100_25'],
      ['name#frag;x', 'name_frag_x'],
      ['evil\u202Efdp.exe', 'evil_fdp.exe'],
      ['  .hidden . ', 'hidden'],
      ['-rf', 'rf'],
      ['CON', '_CON'],
      ['lpt1.txt', '_lpt1.txt'],
      ['e\u0301te\u0301', 'été'],
    ] as const) {
      const name = safeFileName(given);
      assert.equal(name, safe, JSON.stringify(given));
      assert.doesNotMatch(name ?? '', /[/\\\0%]|\.\./);
    }
  });

  test('nothing nameable left is undefined', () => {
    for (const given of ['', '   ', '.', '..', '...', '/', '../', '<>', '_', ' - ']) assert.equal(safeFileName(given), undefined, given);
  });

  test(`overlong names are cut to ${MAX_NAME_BYTES} UTF-8 bytes between graphemes`, () => {
    assert.equal(safeFileName('a'.repeat(1000)), 'a'.repeat(MAX_NAME_BYTES));
    const emoji = safeFileName('👩‍👩‍👧'.repeat(40))!;
    assert.ok(Buffer.byteLength(emoji) <= MAX_NAME_BYTES);
    assert.equal(emoji.length % '👩‍👩‍👧'.length, 0, 'no family cut in half');
    const accents = safeFileName('é'.repeat(200))!;
    assert.equal(Buffer.byteLength(accents), MAX_NAME_BYTES);
  });

  test('is idempotent: a safe name is its own safe form', () => {
    for (const given of ['../../etc/passwd', 'Résumé 报告', 'CON', 'a'.repeat(1000), 'evil\u202Efdp.exe', 'x..y']) {
      const once = safeFileName(given)!;
      assert.equal(safeFileName(once), once, given);
    }
  });
});

describe('contentDisposition', () => {
  test('an ASCII name is inline with a quoted filename', () => {
    assert.equal(contentDisposition('invoice.pdf'), 'inline; filename="invoice.pdf"');
  });

  test('a non-ASCII name adds filename* in UTF-8, percent-encoded, with an ASCII fallback', () => {
    assert.equal(contentDisposition('été.pdf'), `inline; filename="ete.pdf"; filename*=UTF-8''%C3%A9t%C3%A9.pdf`);
    assert.equal(contentDisposition('报告.png'), `inline; filename="_.png"; filename*=UTF-8''%E6%8A%A5%E5%91%8A.png`);
    assert.equal(contentDisposition("it's (1).pdf"), `inline; filename="it's (1).pdf"`);
  });

  test('compatibility forms that decompose to quotes or separators never reach the quoted fallback', () => {
    const header = contentDisposition(`${safeFileName('＂a＂／b＼c')!}.pdf`);
    assert.match(header, /^inline; filename="_a_b_c\.pdf"; filename\*=UTF-8''[A-Za-z0-9%._-]+$/);
  });

  test('every header is printable ASCII', () => {
    for (const given of ['x\u0000', 'évil\u202E', '报告', '😀', 'a'.repeat(500)]) {
      assert.match(contentDisposition(`${safeFileName(given)!}.pdf`), /^[\x20-\x7e]+$/);
    }
  });
});
