/**
 * Issue 25: a page that declares no charset is read by the browser as the fetch path reads it. Each page below has a
 * declared twin (same characters, charset named in the header): the rendered title must be the fetch's, and the
 * screenshot's pixels the twin's. Chromium on its own draws undeclared UTF-8 as windows-1252 (`CafÃ©`).
 */
import assert from 'node:assert/strict';
import tls from 'node:tls';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { startServer, type Route, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';
import { CERT, HOST, KEY } from '../fetch/certificate.ts';
import { fixedResolver } from '../fetch/setup.ts';

const TEXT = 'Café — naïve';

/** windows-1252 bytes of `text`: Latin-1 but for the dash, which 1252 puts at 0x97. */
const cp1252 = (text: string): Buffer => Buffer.from(text.replace(/—/g, '\x97'), 'latin1');

const page = (text: string, head = ''): string =>
  `<!doctype html><html><head>${head}<title>${text}</title></head>` +
  `<body style="margin:0;font:32px sans-serif;background:#fff;color:#000"><p>${text}</p></body></html>`;

/** A page whose sniffed head is all ASCII: its first non-ASCII byte comes long after it. */
const longPage = (text: string): string =>
  `<!doctype html><html><head><title>Long</title></head><body style="margin:0;font:32px sans-serif">` +
  `<!--${'x'.repeat(100_000)}--><p>${text}</p></body></html>`;

const bytes = (body: Buffer, contentType: string, extra: Record<string, string> = {}): Route =>
  (_req, res) => void res.writeHead(200, { 'content-type': contentType, ...extra }).end(body);

/** Each undeclared page, and its declared twin. */
const PAGES: Record<string, readonly [Route, Route]> = {
  utf8: [bytes(Buffer.from(page(TEXT)), 'text/html'), bytes(Buffer.from(page(TEXT)), 'text/html; charset=utf-8')],
  cp1252: [bytes(cp1252(page(TEXT)), 'text/html'), bytes(cp1252(page(TEXT)), 'text/html; charset=windows-1252')],
  gzipped: [
    bytes(gzipSync(page(TEXT)), 'text/html', { 'content-encoding': 'gzip' }),
    bytes(Buffer.from(page(TEXT)), 'text/html; charset=utf-8'),
  ],
  // An unknown label is no declaration, for browsers as for the fetcher.
  bogus: [bytes(Buffer.from(page(TEXT)), 'text/html; charset=no-such'), bytes(Buffer.from(page(TEXT)), 'text/html; charset=utf-8')],
  // A BOM outranks the header's charset, in browsers and in the fetcher alike: nothing to add, nothing to undo.
  bom: [
    bytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(page(TEXT))]), 'text/html; charset=windows-1252'),
    bytes(Buffer.from(page(TEXT)), 'text/html; charset=utf-8'),
  ],
  meta: [
    bytes(cp1252(page(TEXT, '<meta charset="windows-1252">')), 'text/html'),
    bytes(cp1252(page(TEXT, '<meta charset="windows-1252">')), 'text/html; charset=windows-1252'),
  ],
  long: [bytes(Buffer.from(longPage(TEXT)), 'text/html'), bytes(Buffer.from(longPage(TEXT)), 'text/html; charset=utf-8')],
};

/**
 * A frame from another origin (localhost, beside 127.0.0.1): a same-origin frame falls back to its parent's encoding
 * (HTML's "determining the character encoding", step 7), which would hide the frame's own.
 */
const framing = (src: string): Route =>
  bytes(Buffer.from(page('Frame', '<style>iframe{border:0;width:600px;height:120px}</style>').replace('</p>', `</p><iframe src="${src}"></iframe>`)), 'text/html; charset=utf-8');

/**
 * A page whose script reads the undeclared /cp1252 by XHR (synchronous, so read before the page loads), as a fetch()
 * would be: its destination is not a document, so the proxy leaves it as it came, and the script sees what it would
 * without Glance (no charset, so XHR decodes as UTF-8, to U+FFFD where cp1252 has é).
 */
const XHR_PAGE = `<!doctype html><samp></samp><script>
const xhr = new XMLHttpRequest();
xhr.open('GET', '/cp1252', false);
xhr.send();
document.querySelector('samp').textContent = xhr.getResponseHeader('content-type') + ' ' + (xhr.responseText.includes('\\uFFFD') ? 'as UTF-8' : 'relabelled');
</script>`;

const VIEW = 'viewport.width=600&viewport.height=300&viewport.deviceScaleFactor=1';

/**
 * http documents are labelled by the proxy, https ones (inside the proxy's TLS tunnels) by DevTools. The https site
 * is `sni.example` (resolved to 127.0.0.1), whose test certificate the fetcher is made to trust; Chromium is told to
 * accept any, the frame's `localhost` included.
 */
for (const scheme of ['http', 'https'] as const) {
  describe(`${scheme} pages without a declared charset, through the browser`, () => {
    const secure = scheme === 'https';
    let site: TestServer;
    let base: string;
    let service: Service;
    before(async () => {
      site = await startServer(
        Object.fromEntries(Object.entries(PAGES).flatMap(([name, [undeclared, declared]]) => [[`/${name}`, undeclared], [`/${name}-declared`, declared]])),
        secure ? { key: KEY, cert: CERT } : undefined,
      );
      base = secure ? `https://${HOST}:${site.port}` : site.url;
      const foreign = `${scheme}://localhost:${site.port}`;
      site.route('/frame', framing(`${foreign}/utf8`));
      site.route('/frame-declared', framing(`${foreign}/utf8-declared`));
      site.route('/xhr', bytes(Buffer.from(XHR_PAGE), 'text/html; charset=utf-8'));
      if (secure) tls.setDefaultCACertificates([...tls.getCACertificates('default'), CERT]);
      service = await startService(secure ? { resolver: fixedResolver('127.0.0.1'), browserArgs: ['--ignore-certificate-errors'] } : {});
    });
    after(async () => {
      await service?.close();
      await site?.close();
    });

    const shot = async (path: string): Promise<{ title: string; png: PNG }> => {
      const { status, body } = await service.json(q(`${base}${path}`, `screenshot=true&${VIEW}`));
      assert.equal(status, 200, JSON.stringify(body));
      const image = await fetch(body.data.screenshot.url);
      return { title: body.data.title, png: PNG.sync.read(Buffer.from(await image.arrayBuffer())) };
    };

    const fetchedTitle = async (path: string): Promise<string> => (await service.json(q(`${base}${path}`, 'prerender=false'))).body.data.title;

    for (const name of [...Object.keys(PAGES), 'frame']) {
      test(`${name}: the rendered title is the fetched one, the pixels the declared twin's`, async () => {
        const [undeclared, twin] = [await shot(`/${name}`), await shot(`/${name}-declared`)];
        assert.equal(undeclared.title, await fetchedTitle(`/${name}`));
        assert.equal(undeclared.title, twin.title);
        assert.ok(undeclared.png.data.equals(twin.png.data), `${name}: the screenshot differs from the declared twin's`);
      });
    }

    test('the text is the page\'s, not mojibake', async () => {
      assert.equal((await shot('/utf8')).title, TEXT);
      const { body } = await service.json(q(`${base}/utf8`, 'prerender=true&meta=false&data.text.selector=p'));
      assert.equal(body.data.text, TEXT);
      assert.equal(body.headers['content-type'], 'text/html', 'the target\'s own header is reported, not the label');
    });

    test('a page\'s own request for undeclared HTML reads it as the browser would without Glance', async () => {
      const { status, body } = await service.json(q(`${base}/xhr`, 'prerender=true&meta=false&data.text.selector=samp'));
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.data.text, 'text/html as UTF-8');
    });
  });
}
