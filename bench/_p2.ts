import sharp from 'sharp';
const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]!;
async function time(name: string, fn: () => Promise<unknown>, n = 5) {
  const t: number[] = [];
  for (let i = 0; i < n; i++) { const s = performance.now(); await fn(); t.push(performance.now() - s); }
  console.log(name.padEnd(40), med(t).toFixed(1), 'ms');
}
const W = 2970, H = 2090;
const ring = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="2562" height="1682"><path fill-rule="evenodd" fill="rgba(255,255,255,0.16)" d="M0 21a21 21 0 0 1 21 -21h2520a21 21 0 0 1 21 21v1640a21 21 0 0 1 -21 21h-2520a21 21 0 0 1 -21 -21z M1 21a20 20 0 0 1 20 -20h2520a20 20 0 0 1 20 20v1640a20 20 0 0 1 -20 20h-2520a20 20 0 0 1 -20 -20z"/></svg>`);
await time('ring svg raster', () => sharp(ring).raw().toBuffer());
const small = Buffer.alloc(743 * 523 * 4, 10);
await time('resize small->full', () => sharp(small, { raw: { width: 743, height: 523, channels: 4 } }).resize(W, H, { fit: 'fill' }).raw().toBuffer());
const full4 = Buffer.alloc(W * H * 4, 10);
const full3 = Buffer.alloc(W * H * 3, 200);
const win = Buffer.alloc(2560 * 1680 * 4, 255);
await time('composite 2 full overlays -> raw', () => sharp(full3, { raw: { width: W, height: H, channels: 3 } }).composite([{ input: full4, raw: { width: W, height: H, channels: 4 } }, { input: win, raw: { width: 2560, height: 1680, channels: 4 }, left: 205, top: 205 }]).raw().toBuffer());
await time('composite + ring -> raw', () => sharp(full3, { raw: { width: W, height: H, channels: 3 } }).composite([{ input: full4, raw: { width: W, height: H, channels: 4 } }, { input: ring, left: 204, top: 204 }, { input: win, raw: { width: 2560, height: 1680, channels: 4 }, left: 205, top: 205 }]).raw().toBuffer());
await time('png encode full', () => sharp(full3, { raw: { width: W, height: H, channels: 3 } }).png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer());
console.log(sharp.concurrency());
