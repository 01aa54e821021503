import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import iconv from 'iconv-lite';
import { decodeBody, decodeHtml, undeclaredCharset } from '../../lib/fetch/charset.ts';
import { localGuess } from '../helpers/charset.ts';

/**
 * Real-sized prose per encoding: detection is statistical and needs a paragraph, as real pages have. `label` is
 * what a page would declare (aliases on purpose), `charset` the WHATWG name we expect back, `detected` what
 * detection can tell apart without any declaration.
 */
const CASES = [
  {
    encoding: 'windows-1252',
    label: 'ISO-8859-1',
    charset: 'windows-1252',
    text: 'Le café de la place du marché est ouvert tous les jours. Les élèves y prennent un thé après les cours, et le garçon sert des crêpes à la crème fraîche. « C’est très agréable », dit Hélène, qui préfère la brioche. Où est la bibliothèque ? Elle se trouve derrière l’église, près du théâtre.',
  },
  {
    encoding: 'iso-8859-2',
    label: 'latin2',
    charset: 'iso-8859-2',
    text: 'Wczoraj wieczorem poszliśmy do kina na nowy polski film. Bardzo nam się podobał, chociaż był dość długi. Główny bohater mieszka w małym mieście na południu kraju i codziennie jeździ rowerem do pracy. Jego żona uczy w szkole, a dzieci chodzą do przedszkola. Wszyscy są szczęśliwi, aż pewnego dnia przychodzi list.',
  },
  {
    encoding: 'iso-8859-15',
    label: 'ISO-8859-15',
    charset: 'iso-8859-15',
    // Undeclared, 8859-15 is indistinguishable from 8859-1 except for €/œ/Ÿ: detection reads it as windows-1252.
    detected: 'windows-1252',
    text: "Le cœur de l'œuvre est très émouvant. Le billet coûte 20 € à l'entrée du musée, mais les étudiants paient moins cher. Cet été, l'exposition présente des tableaux célèbres et des sœurs peintres oubliées. Nous y sommes allés avec nos élèves après la rentrée.",
  },
  {
    encoding: 'windows-1251',
    label: 'cp1251',
    charset: 'windows-1251',
    text: 'Вчера вечером мы ходили в кино на новый российский фильм. Он нам очень понравился, хотя был довольно длинным. Главный герой живёт в небольшом городе на юге страны и каждый день ездит на работу на велосипеде. Его жена работает учительницей в школе, а дети ходят в детский сад.',
  },
  {
    encoding: 'shift_jis',
    label: 'x-sjis',
    charset: 'shift_jis',
    text: '日本語のテキストです。これはテストのための文章で、ひらがなとカタカナと漢字を含みます。東京は日本の首都であり、多くの人々が毎日電車で通勤しています。',
  },
  {
    encoding: 'euc-jp',
    label: 'EUC-JP',
    charset: 'euc-jp',
    text: '日本語のテキストです。これはテストのための文章で、ひらがなとカタカナと漢字を含みます。京都には古いお寺や神社がたくさんあり、秋の紅葉がとても美しいです。',
  },
  {
    encoding: 'gbk',
    label: 'gb2312',
    charset: 'gbk',
    // GB18030 is a superset of GBK, so the detected name differs but the text is the same.
    detected: 'gb18030',
    text: '这是一个用于测试的中文网页。我们需要检查字符编码是否正确识别。北京是中国的首都，有很多历史悠久的名胜古迹，每年都吸引大量游客前来参观。',
  },
  {
    encoding: 'gb18030',
    label: 'GB18030',
    charset: 'gb18030',
    text: '这是一个用于测试的中文网页。我们需要检查字符编码是否正确识别。上海是一座国际化大都市，经济发达，交通便利，生活节奏很快。𠀀',
  },
  {
    encoding: 'big5',
    label: 'Big5',
    charset: 'big5',
    text: '這是一個用於測試的中文網頁。我們需要檢查字元編碼是否正確識別。臺北是一座充滿活力的城市，夜市裡有各式各樣的小吃，吸引許多觀光客。',
  },
  {
    encoding: 'euc-kr',
    label: 'ks_c_5601-1987',
    charset: 'euc-kr',
    text: '이것은 테스트를 위한 한국어 웹 페이지입니다. 문자 인코딩을 확인해야 합니다. 서울은 대한민국의 수도이며 많은 사람들이 지하철을 이용하여 출퇴근합니다.',
  },
];

const page = (text: string, head = ''): string =>
  `<!doctype html><html><head>${head}<title>${text.slice(0, 30)}</title></head><body><p>${text}</p></body></html>`;

describe('decodeHtml', () => {
  for (const { encoding, label, charset, text, detected } of CASES) {
    describe(encoding, () => {
      test('declared in the Content-Type header', () => {
        const body = iconv.encode(page(text), encoding);
        const result = decodeHtml(body, `text/html; charset="${label}"`);
        assert.equal(result.charset, charset);
        assert.ok(result.text.includes(text));
      });

      test('declared in <meta charset>', () => {
        const body = iconv.encode(page(text, `<meta charset="${label}">`), encoding);
        const result = decodeHtml(body, 'text/html');
        assert.equal(result.charset, charset);
        assert.ok(result.text.includes(text));
      });

      test('declared in <meta http-equiv="Content-Type">', () => {
        const head = `<META HTTP-EQUIV='content-type' CONTENT='text/html;charset=${label}'>`;
        const result = decodeHtml(iconv.encode(page(text, head), encoding), undefined);
        assert.equal(result.charset, charset);
        assert.ok(result.text.includes(text));
      });

      test('undeclared: detected', () => {
        const result = decodeHtml(iconv.encode(page(text), encoding), 'text/html');
        assert.equal(result.charset, detected ?? charset);
        // The one thing detection cannot tell: 8859-15's € and œ against 8859-1's ¤ and ½.
        const comparable = encoding === 'iso-8859-15' ? text.replace(/[€œ]/g, '') : text;
        const decoded = encoding === 'iso-8859-15' ? result.text.replace(/[¤½]/g, '') : result.text;
        assert.ok(decoded.includes(comparable), decoded.slice(0, 200));
      });
    });
  }
});

describe('decodeHtml precedence', () => {
  const text = 'Grüße aus Köln — “quoted”';
  const utf8 = Buffer.from(page(text));

  test('a UTF-8 BOM beats a header that says otherwise, and is dropped', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]);
    const result = decodeHtml(body, 'text/html; charset=windows-1252');
    assert.equal(result.charset, 'utf-8');
    assert.ok(result.text.startsWith('<!doctype'));
    assert.ok(result.text.includes(text));
  });

  for (const [encoding, bom] of [
    ['utf-16le', [0xff, 0xfe]],
    ['utf-16be', [0xfe, 0xff]],
  ] as const) {
    test(`a ${encoding} BOM`, () => {
      const body = Buffer.concat([Buffer.from(bom), iconv.encode(page(text), encoding)]);
      const result = decodeHtml(body, 'text/html; charset=iso-8859-1');
      assert.equal(result.charset, encoding);
      assert.ok(result.text.startsWith('<!doctype'));
      assert.ok(result.text.includes(text));
    });
  }

  test('the header beats <meta>', () => {
    const body = iconv.encode(page(text, '<meta charset="windows-1251">'), 'windows-1252');
    assert.equal(decodeHtml(body, 'text/html; charset=windows-1252').charset, 'windows-1252');
  });

  test('an unknown header label falls through to <meta>', () => {
    const body = iconv.encode(page(text, '<meta charset="iso-8859-2">'), 'iso-8859-2');
    assert.equal(decodeHtml(body, 'text/html; charset=no-such-charset').charset, 'iso-8859-2');
  });

  test('an unknown <meta> label falls through to the next <meta>, then to detection', () => {
    const two = iconv.encode(page(text, '<meta charset="bogus"><meta charset="windows-1252">'), 'windows-1252');
    assert.equal(decodeHtml(two, undefined).charset, 'windows-1252');
    assert.equal(decodeHtml(Buffer.from(page(text, '<meta charset="bogus">')), undefined).charset, 'utf-8');
  });

  test('<meta> declaring UTF-16 means UTF-8', () => {
    const result = decodeHtml(Buffer.from(page(text, '<meta charset="utf-16">')), undefined);
    assert.equal(result.charset, 'utf-8');
    assert.ok(result.text.includes(text));
  });

  test('<meta> inside a comment is ignored', () => {
    const body = Buffer.from(page(text, '<!-- <meta charset="koi8-r"> -->'));
    assert.equal(decodeHtml(body, undefined).charset, 'utf-8');
  });

  test('<meta> after 1024 bytes of <head> is still found', () => {
    const head = `<script>${'/* long inline script */'.repeat(80)}</script><meta charset="windows-1251">`;
    const russian = 'Привет, мир';
    const result = decodeHtml(iconv.encode(page(russian, head), 'windows-1251'), 'text/html');
    assert.equal(result.charset, 'windows-1251');
    assert.ok(result.text.includes(russian));
  });

  test('pure ASCII is UTF-8; ISO-2022-JP, also 7-bit, is detected by its escapes', () => {
    assert.equal(decodeHtml(Buffer.from(page('plain ascii')), undefined).charset, 'utf-8');
    const japanese = '日本語のテキストです。これはテストのための文章です。';
    // iconv-lite has no ISO-2022-JP encoder; for JIS X 0208 text it is EUC-JP with the high bits cleared,
    // between the escapes that switch to and from the double-byte set.
    const jis = Buffer.from(iconv.encode(japanese, 'euc-jp').map((byte) => byte & 0x7f));
    const [before, after] = page('\0').split('\0') as [string, string];
    const body = Buffer.concat([Buffer.from(before), Buffer.from('\x1b$B'), jis, Buffer.from('\x1b(B'), Buffer.from(after)]);
    const result = decodeHtml(body, undefined);
    assert.equal(result.charset, 'iso-2022-jp');
    assert.ok(result.text.includes(japanese));
  });

  test('undeclared valid UTF-8 is UTF-8', () => {
    assert.deepEqual(decodeHtml(utf8, 'text/html'), { text: page(text), charset: 'utf-8' });
  });
});

describe('a body decoded as it was read, in pieces', () => {
  // Every chunk ends inside a four-byte character: the streaming decoder holds its bytes back, so no piece ends
  // between the halves of its pair (a half alone would be written, or encoded for a worker, as U+FFFD).
  const body = Buffer.from(`<title>x</title>${'😀a'.repeat(3000)}`);
  const chunks = Array.from({ length: Math.ceil(body.length / 1001) }, (_, i) => body.subarray(i * 1001, (i + 1) * 1001));

  for (const contentType of ['text/html; charset=utf-8', 'text/html']) {
    test(`each piece stands alone, no pair cut, and together they are the page (${contentType})`, async () => {
      const { text, charset } = await decodeBody(chunks, contentType, localGuess);
      assert.equal(charset, 'utf-8');
      assert.ok(text.length > 1, 'pieces');
      for (const piece of text) assert.equal(Buffer.from(piece).toString(), piece, 'a piece encodes to itself');
      assert.equal(text.join(''), body.toString());
    });
  }
});

describe('undeclaredCharset: what a browser is told, from the head alone', () => {
  const text = 'Grüße aus Köln — “quoted”';

  test('for a whole body, the charset decodeHtml chooses, for each encoding detection tells apart', async () => {
    for (const { encoding, text: prose } of CASES) {
      const body = iconv.encode(page(prose), encoding);
      assert.equal(await undeclaredCharset(body, 'text/html', true, localGuess), decodeHtml(body, 'text/html').charset, encoding);
    }
  });

  test('a head cut inside a character is still UTF-8; a whole body that ends so is not', async () => {
    const body = Buffer.from(page(text));
    const cut = body.subarray(0, body.indexOf(Buffer.from('ü')) + 1);
    assert.equal(await undeclaredCharset(cut, 'text/html', false, localGuess), 'utf-8');
    assert.notEqual(await undeclaredCharset(cut, 'text/html', true, localGuess), 'utf-8');
  });

  test('nothing to tell when the header, a BOM or a <meta> declares one', async () => {
    const body = Buffer.from(page(text));
    assert.equal(await undeclaredCharset(body, 'text/html; charset=utf-8', true, localGuess), undefined);
    assert.equal(await undeclaredCharset(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]), 'text/html', true, localGuess), undefined);
    assert.equal(await undeclaredCharset(Buffer.from(page(text, '<meta charset="utf-8">')), undefined, true, localGuess), undefined);
    assert.equal(await undeclaredCharset(body, 'text/html; charset=no-such', true, localGuess), 'utf-8', 'an unknown label declares nothing');
  });
});
