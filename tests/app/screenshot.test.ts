/**
 * Screenshots end to end through the local service: stored where the CDN address serves them, reported with the
 * image's true pixels, and usable as an image by a real browser through `embed`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import type { Browser } from 'puppeteer-core';
import { rasterSize } from '../../lib/media/dimensions.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { launchBareBrowser } from '../helpers/browser.ts';
import { q, startService, type Service } from '../helpers/service.ts';

const PAGE = `<!doctype html><html><head><title>Shot</title><meta name="description" content="A page to capture">
<style>body{margin:0;background:#fff} #box{width:400px;height:300px;background:rgb(0,128,255)}</style></head>
<body><div id="box"></div><p style="height:2000px">tall</p></body></html>`;

describe('screenshot through the service', () => {
  let site: TestServer;
  let service: Service;
  let user: Browser;
  before(async () => {
    site = await startServer({ '/': html(PAGE) });
    service = await startService();
    user = await launchBareBrowser();
  });
  after(async () => {
    await user?.close();
    await service.close();
    await site.close();
  });

  const download = async (url: string) => {
    const response = await fetch(url);
    assert.equal(response.status, 200);
    return { body: Buffer.from(await response.arrayBuffer()), headers: response.headers };
  };

  test('screenshot=true stores a PNG on the CDN address and reports its true size', async () => {
    const { status, body, headers } = await service.json(q(`${site.url}/`, 'screenshot=true'));
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(headers.get('x-fetch-mode'), 'prerender');
    const shot = body.data.screenshot;
    assert.ok(shot.url.startsWith(`${service.url}/`), shot.url);
    assert.equal(shot.type, 'png');
    assert.equal(shot.width, 2560);
    assert.equal(shot.height, 1600);
    assert.equal(body.data.title, 'Shot');
    const image = await download(shot.url);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.match(image.headers.get('cache-control') ?? '', /immutable/);
    assert.equal(image.body.length, shot.size);
    const png = PNG.sync.read(image.body);
    assert.deepEqual([png.width, png.height], [2560, 1600]);
  });

  test('an element capture of a 400×300 box at the default device is 800×600, in the box colour', async () => {
    const { body } = await service.json(q(`${site.url}/`, 'screenshot.element=%23box&meta=false'));
    assert.deepEqual([body.data.screenshot.width, body.data.screenshot.height], [800, 600]);
    const png = PNG.sync.read((await download(body.data.screenshot.url)).body);
    assert.deepEqual([png.width, png.height], [800, 600]);
    const i = (300 * png.width + 400) * 4;
    assert.deepEqual([...png.data.subarray(i, i + 3)], [0, 128, 255]);
  });

  test('jpeg is JPEG; the size is the stored bytes', async () => {
    const { body } = await service.json(q(`${site.url}/`, 'screenshot.type=jpeg&screenshot.quality=50&meta=false&viewport.deviceScaleFactor=1'));
    assert.equal(body.data.screenshot.type, 'jpg');
    const image = await download(body.data.screenshot.url);
    assert.deepEqual([...image.body.subarray(0, 3)], [0xff, 0xd8, 0xff]);
    assert.equal(image.body.length, body.data.screenshot.size);
    assert.match(body.data.screenshot.size_pretty, /^\d+(\.\d+)? kB$/);
  });

  test('webp is a real WebP stored as image/webp under .webp; quality changes its bytes', async () => {
    const shoot = async (quality: number) => {
      const { status, body } = await service.json(q(`${site.url}/`, `screenshot.type=webp&screenshot.quality=${quality}&meta=false&viewport.deviceScaleFactor=1`));
      assert.equal(status, 200, JSON.stringify(body));
      return body.data.screenshot;
    };
    const shot = await shoot(80);
    assert.equal(shot.type, 'webp');
    assert.match(shot.url, /\/[0-9a-f]{64}\.webp$/);
    assert.deepEqual([shot.width, shot.height], [1280, 800]);
    const image = await download(shot.url);
    assert.equal(image.headers.get('content-type'), 'image/webp');
    assert.equal(image.body.subarray(0, 4).toString('latin1'), 'RIFF');
    assert.equal(image.body.subarray(8, 12).toString('latin1'), 'WEBP');
    assert.equal(image.body.length, shot.size);
    assert.deepEqual(rasterSize(image.body), { width: 1280, height: 800 });
    const low = await shoot(5);
    assert.ok(low.size < shot.size, `quality 5 (${low.size} B) is smaller than quality 80 (${shot.size} B)`);
  });

  test('an overlay in webp is a WebP of the framed size', async () => {
    const { body } = await service.json(
      q(`${site.url}/`, 'screenshot.type=webp&screenshot.overlay.browser=light&screenshot.overlay.background=%2300ff00&meta=false&viewport.deviceScaleFactor=1&viewport.width=640&viewport.height=400'),
    );
    const shot = body.data.screenshot;
    assert.equal(shot.type, 'webp');
    const image = await download(shot.url);
    assert.equal(image.body.subarray(8, 12).toString('latin1'), 'WEBP');
    assert.ok(shot.width > 640 && shot.height > 400, `${shot.width}×${shot.height}`);
    assert.deepEqual(rasterSize(image.body), { width: shot.width, height: shot.height });
  });

  test('meta=false with embed loads the target once, by the browser only', async () => {
    const hits = site.hits.length;
    const response = await service.request(q(`${site.url}/`, 'screenshot=true&meta=false&embed=screenshot.url'));
    assert.equal(response.status, 302);
    assert.match(response.headers.get('location') ?? '', new RegExp(`^${service.url}/[0-9a-f]{64}\\.png$`));
    assert.equal(site.hits.length - hits, 1, 'one load of the target');
  });

  test('a real browser uses the embed address as <img src>, CSS url() and og:image', async () => {
    const embed = `${service.url}/?${q(`${site.url}/`, 'screenshot=true&meta=false&embed=screenshot.url&viewport.width=400&viewport.height=300&viewport.deviceScaleFactor=1')}`;
    site.route(
      '/embeds',
      html(`<!doctype html><html><head><meta property="og:image" content="${embed.replaceAll('&', '&amp;')}">
<style>#bg{width:10px;height:10px;background-image:url("${embed}")}</style></head>
<body><img id="img" src="${embed.replaceAll('&', '&amp;')}"><div id="bg"></div></body></html>`),
    );
    const page = await user.newPage();
    try {
      await page.goto(`${site.url}/embeds`, { waitUntil: 'networkidle0', timeout: 20_000 });
      // A string, not a function: tsx would inject helpers into a function that the page does not have.
      const sizes = await page.evaluate(`(async () => {
        const load = (src) => new Promise((resolve, reject) => {
          const image = new Image();
          image.onload = () => resolve([image.naturalWidth, image.naturalHeight]);
          image.onerror = () => reject(new Error('failed: ' + src));
          image.src = src;
        });
        const img = document.getElementById('img');
        const css = getComputedStyle(document.getElementById('bg')).backgroundImage.replace(/^url\\("?|"?\\)$/g, '');
        const og = document.querySelector('meta[property="og:image"]').getAttribute('content');
        return { img: [img.naturalWidth, img.naturalHeight], css: await load(css), og: await load(og) };
      })()`);
      assert.deepEqual(sizes, { img: [400, 300], css: [400, 300], og: [400, 300] });
    } finally {
      await page.close();
    }
  });

  test('pdf=true stores a PDF; embed=pdf.url redirects to it', async () => {
    const { body } = await service.json(q(`${site.url}/`, 'pdf=true&meta=false'));
    assert.equal(body.data.pdf.type, 'pdf');
    const file = await download(body.data.pdf.url);
    assert.equal(file.body.subarray(0, 4).toString(), '%PDF');
    assert.equal(file.body.length, body.data.pdf.size);
    // A new print (its own creation date, so its own key) behind the redirect.
    const redirect = await service.request(q(`${site.url}/`, 'pdf=true&meta=false&embed=pdf.url'));
    assert.equal(redirect.status, 302);
    const location = redirect.headers.get('location') ?? '';
    assert.match(location, new RegExp(`^${service.url}/[0-9a-f]{64}\\.pdf$`));
    assert.equal((await download(location)).body.subarray(0, 4).toString(), '%PDF');
  });

  test('filename names the stored PDF and screenshot: the URL ends with the name, the download carries it', async () => {
    const { status, body } = await service.json(q(`${site.url}/`, 'pdf=true&screenshot=true&meta=false&filename=Relev%C3%A9%2F..%2Finvoice.pdf'));
    assert.equal(status, 200, JSON.stringify(body));
    const { pdf, screenshot } = body.data;
    assert.match(pdf.url, new RegExp(`^${service.url}/[0-9a-f]{64}/Relev%C3%A9_._invoice\\.pdf$`));
    assert.match(screenshot.url, new RegExp(`^${service.url}/[0-9a-f]{64}/Relev%C3%A9_._invoice\\.png$`), 'the extension follows the type');
    const file = await download(pdf.url);
    assert.equal(file.body.subarray(0, 4).toString(), '%PDF');
    assert.equal(file.headers.get('content-type'), 'application/pdf');
    assert.equal(file.headers.get('content-disposition'), `inline; filename="Releve_._invoice.pdf"; filename*=UTF-8''Relev%C3%A9_._invoice.pdf`);
    const image = await download(screenshot.url);
    assert.equal(image.headers.get('content-disposition'), `inline; filename="Releve_._invoice.png"; filename*=UTF-8''Relev%C3%A9_._invoice.png`);
    assert.equal(PNG.sync.read(image.body).width, screenshot.width);
    // Without filename the same capture has no Content-Disposition.
    const plain = await service.json(q(`${site.url}/`, 'screenshot=true&meta=false&viewport.width=300&viewport.height=200'));
    assert.equal((await download(plain.body.data.screenshot.url)).headers.get('content-disposition'), null);
    const redirect = await service.request(q(`${site.url}/`, 'screenshot=true&meta=false&filename=shot&embed=screenshot.url'));
    assert.equal(redirect.status, 302);
    assert.match(redirect.headers.get('location') ?? '', /\/[0-9a-f]{64}\/shot\.png$/);
    assert.equal((await download(redirect.headers.get('location')!)).headers.get('content-disposition'), 'inline; filename="shot.png"');
  });

  test('overlay frames the capture on a background; the reported size is the final image', async () => {
    const { body } = await service.json(
      q(`${site.url}/`, 'screenshot.overlay.browser=dark&screenshot.overlay.background=%23ff0000&meta=false&viewport.deviceScaleFactor=1&viewport.width=640&viewport.height=400'),
    );
    const shot = body.data.screenshot;
    assert.ok(shot.width > 640 && shot.height > 400, `${shot.width}×${shot.height}`);
    const png = PNG.sync.read((await download(shot.url)).body);
    assert.deepEqual([png.width, png.height], [shot.width, shot.height]);
    assert.deepEqual([...png.data.subarray(0, 3)], [255, 0, 0], 'the corner is the background');
  });

  test('an overlay background on a private address is refused, with nothing fetched', async () => {
    // Only the name public.test is exempt (and resolves to the test server); 127.0.0.1 itself is not.
    const resolver = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const strict = await startService({ allowHosts: 'public.test', resolver });
    try {
      const background = encodeURIComponent(`http://127.0.0.1:${site.port}/bg.png`);
      const { status, body } = await strict.json(
        q(`http://public.test:${site.port}/`, `screenshot.overlay.background=${background}&meta=false`),
      );
      assert.equal(status, 403, JSON.stringify(body));
      assert.equal(site.hits.includes('/bg.png'), false);
    } finally {
      await strict.close();
    }
  });
});
