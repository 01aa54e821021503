import sharp from 'sharp';
import { writeFileSync } from 'node:fs';
import { launchBareBrowser } from '../tests/helpers/browser.ts';
import { applyOverlay } from '../lib/browser/overlay.ts';
import { applyOverlay as oldOverlay } from '../lib/browser/_old_overlay.ts';
const b = await launchBareBrowser();
const page = await b.newPage();
await page.setViewport({ width: 640, height: 400, deviceScaleFactor: 2 });
await page.setContent('<body style="margin:0;background:#fff"><h1 style="font:40px sans-serif;margin:20px">Hello page</h1><div style="height:200px;background:linear-gradient(#f80,#08f)"></div></body>');
const body = Buffer.from(await page.screenshot({ type: 'png' }));
const renderHtml = async (html: string, viewport: any, options: any = {}) => {
  const p = await b.newPage(); await p.setViewport(viewport); await p.setContent(html, { waitUntil: 'load' });
  const out = Buffer.from(await p.screenshot({ type: 'png', ...(options.omitBackground ? { omitBackground: true } : {}) })); await p.close(); return out;
};
const fetchImage = async () => { throw new Error('no'); };
const cap = { body, type: 'png' as const, width: 1280, height: 800 };
for (const [name, ov] of [['dark-grad', { browser: 'dark', background: 'linear-gradient(135deg, #fbc2eb, #a6c1ee)' }], ['light-none', { browser: 'light', background: undefined }], ['none-colour', { browser: undefined, background: 'rebeccapurple' }], ['light-radial', { browser: 'light', background: 'radial-gradient(circle, #fff, #333)' }]] as const) {
  const t1 = performance.now();
  const n = await applyOverlay(cap, ov as any, 2, { type: 'png', quality: 80 }, { renderHtml, fetchImage });
  const t2 = performance.now();
  const o = await oldOverlay(cap, ov as any, 2, undefined, { renderHtml, fetchImage } as any);
  console.log(name, 'new', (t2 - t1).toFixed(0), 'ms', n.width, n.height, n.body.length, 'old', o.width, o.height, o.body.length);
  const diff = await sharp(n.body).ensureAlpha().raw().toBuffer(); const od = await sharp(o.body).ensureAlpha().raw().toBuffer();
  let max = 0, sum = 0; for (let i = 0; i < diff.length; i++) { const d = Math.abs(diff[i]! - od[i]!); sum += d; if (d > max) max = d; }
  console.log('  max channel diff', max, 'mean', (sum / diff.length).toFixed(3));
  writeFileSync(`/tmp/ovl/${name}-new.png`, n.body); writeFileSync(`/tmp/ovl/${name}-old.png`, o.body);
  // side by side crop of top-left corner region
  const crop = async (buf: Buffer) => sharp(buf).extract({ left: 0, top: 0, width: Math.min(700, n.width), height: Math.min(320, n.height) }).toBuffer();
  await sharp({ create: { width: Math.min(700, n.width) * 2 + 10, height: Math.min(320, n.height), channels: 4, background: '#888' } }).composite([{ input: await crop(o.body), left: 0, top: 0 }, { input: await crop(n.body), left: Math.min(700, n.width) + 10, top: 0 }]).png().toFile(`/tmp/ovl/${name}-cmp.png`);
}
await b.close();
