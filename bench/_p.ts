import sharp from 'sharp';
import { launchBareBrowser } from '../tests/helpers/browser.ts';
import { applyOverlay } from '../lib/browser/overlay.ts';
import { paintCss } from '../lib/browser/overlay/paint.ts';
const b = await launchBareBrowser();
const page = await b.newPage();
await page.setViewport({ width: 1280, height: 800, deviceScaleFactor: 2 });
await page.setContent('<body style="margin:0;background:#fff"><h1 style="font:40px sans-serif;margin:20px">Hello page</h1><p>' + 'Lorem ipsum dolor sit amet '.repeat(200) + '</p><div style="height:200px;background:linear-gradient(#f80,#08f)"></div></body>');
const body = Buffer.from(await page.screenshot({ type: 'png', optimizeForSpeed: true }));
const deps = { renderHtml: async () => { throw new Error('x'); }, fetchImage: async () => { throw new Error('no'); } };
const cap = { body, type: 'png' as const, width: 2560, height: 1600 };
const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]!;
async function time(name: string, fn: () => Promise<unknown>, n = 7) {
  const t: number[] = [];
  for (let i = 0; i < n; i++) { const s = performance.now(); await fn(); t.push(performance.now() - s); }
  console.log(name.padEnd(40), med(t).toFixed(1), 'ms');
}
for (const type of ['png', 'jpeg', 'webp'] as const)
  await time('overlay dark+gradient ' + type, () => applyOverlay(cap, { browser: 'dark', background: 'linear-gradient(135deg, #fbc2eb, #a6c1ee)' }, 2, { type, quality: 80 }, deps));
await time('overlay dark only png', () => applyOverlay(cap, { browser: 'dark', background: undefined }, 2, { type: 'png', quality: 80 }, deps));
await time('overlay colour png', () => applyOverlay(cap, { browser: undefined, background: '#123456' }, 2, { type: 'png', quality: 80 }, deps));
await time('paint gradient', () => paintCss(sharp, 'linear-gradient(135deg, #fbc2eb, #a6c1ee)', 2970, 2090));
await time('decode capture', () => sharp(body).ensureAlpha().raw().toBuffer());
await b.close();
