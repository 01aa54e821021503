/**
 * The fonts layer: Noto for the scripts @sparticuz/chromium's one Latin font (Open Sans) leaves blank — Chinese
 * (simplified and traditional), Japanese, Korean, Arabic, Hebrew, Devanagari, Thai — and colour emoji. A layer
 * lands in /opt, and the fontconfig file @sparticuz/chromium unpacks (FONTCONFIG_PATH=/tmp/fonts) lists /opt/fonts
 * among its font folders, so the files go to `fonts/` in the layer.
 *
 * The files come from npm packages (dev dependencies, versions from the lock file), so a deploy needs no download
 * beyond `npm ci`. Regular and bold of each; Noto Color Emoji ships only as web fonts, so its WOFF slices are
 * unwrapped into plain OpenType here, without their SVG table (Chromium draws the COLR glyphs; the SVG copies
 * would add 80 MB). The SIL Open Font License of each package is copied into `fonts/licenses/`, as it asks.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { buildOnce } from './build-once.ts';

interface FontSource {
  readonly name: string;
  /** Folders inside the package whose files, filtered by `pattern`, are taken. */
  readonly dirs: readonly string[];
  readonly pattern: RegExp;
}

export const FONT_SOURCES: readonly FontSource[] = [
  { name: '@embedpdf/fonts-sc', dirs: ['fonts'], pattern: /^NotoSansHans-(Regular|Bold)\.otf$/ },
  { name: '@embedpdf/fonts-tc', dirs: ['fonts'], pattern: /^NotoSansHant-(Regular|Bold)\.otf$/ },
  { name: '@embedpdf/fonts-jp', dirs: ['fonts'], pattern: /^NotoSansJP-(Regular|Bold)\.otf$/ },
  { name: '@embedpdf/fonts-kr', dirs: ['fonts'], pattern: /^NotoSansKR-(Regular|Bold)\.otf$/ },
  { name: '@embedpdf/fonts-arabic', dirs: ['fonts'], pattern: /^NotoNaskhArabic-(Regular|Bold)\.ttf$/ },
  { name: '@embedpdf/fonts-hebrew', dirs: ['fonts'], pattern: /^NotoSansHebrew-(Regular|Bold)\.ttf$/ },
  { name: '@expo-google-fonts/noto-sans-devanagari', dirs: ['400Regular', '700Bold'], pattern: /\.ttf$/ },
  { name: '@expo-google-fonts/noto-sans-thai', dirs: ['400Regular', '700Bold'], pattern: /\.ttf$/ },
  { name: '@fontsource/noto-color-emoji', dirs: ['files'], pattern: /^noto-color-emoji-[\w]+-400-normal\.woff$/ },
];

/** Tables left out of unwrapped web fonts: SVG glyphs, which Chromium does not draw from system fonts. */
const DROPPED_TABLES = new Set(['SVG ']);

/**
 * WOFF 1.0 (https://www.w3.org/TR/WOFF/) → the OpenType file it wraps: each table inflated, the directory rebuilt
 * with 4-byte aligned tables. Checksums are carried over; FreeType does not verify them.
 */
export function unwrapWoff(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF file');
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables: Array<{ tag: string; checksum: number; data: Buffer }> = [];
  for (let i = 0; i < count; i++) {
    const entry = 44 + i * 20;
    const tag = woff.toString('latin1', entry, entry + 4);
    if (DROPPED_TABLES.has(tag)) continue;
    const offset = woff.readUInt32BE(entry + 4);
    const compressed = woff.readUInt32BE(entry + 8);
    const original = woff.readUInt32BE(entry + 12);
    const raw = woff.subarray(offset, offset + compressed);
    tables.push({ tag, checksum: woff.readUInt32BE(entry + 16), data: compressed < original ? inflateSync(raw) : Buffer.from(raw) });
  }
  tables.sort((a, b) => (a.tag < b.tag ? -1 : 1));
  const power = 2 ** Math.floor(Math.log2(tables.length));
  const header = Buffer.alloc(12 + tables.length * 16);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(tables.length, 4);
  header.writeUInt16BE(power * 16, 6);
  header.writeUInt16BE(Math.log2(power), 8);
  header.writeUInt16BE(tables.length * 16 - power * 16, 10);
  const chunks: Buffer[] = [header];
  let offset = header.length;
  tables.forEach(({ tag, checksum, data }, index) => {
    const record = 12 + index * 16;
    header.write(tag, record, 'latin1');
    header.writeUInt32BE(checksum, record + 4);
    header.writeUInt32BE(offset, record + 8);
    header.writeUInt32BE(data.length, record + 12);
    const padded = Buffer.alloc(Math.ceil(data.length / 4) * 4);
    data.copy(padded);
    chunks.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(chunks);
}

const packageDir = (modules: string, name: string): string => join(modules, ...name.split('/'));
const versionOf = (dir: string): string => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;

export interface FontsLayer {
  /** The folder to zip: it holds `fonts/`. */
  readonly path: string;
  /** Bytes of the font files, as unzipped in /opt. */
  readonly bytes: number;
}

/** Builds the layer folder once per set of package versions (build-once.ts). */
export function buildFontsLayer(root: string): FontsLayer {
  const modules = join(root, 'node_modules');
  const fingerprint = createHash('sha256').update('fonts-layer-1\n');
  for (const source of FONT_SOURCES) {
    const dir = packageDir(modules, source.name);
    if (!existsSync(join(dir, 'package.json'))) throw new Error(`${source.name} is not installed in ${modules}: run npm ci (it is a dev dependency)`);
    fingerprint.update(`${source.name}@${versionOf(dir)}\n`);
  }
  const layer = join(root, '.build', `fonts-layer-${fingerprint.digest('hex').slice(0, 12)}`);
  buildOnce(layer, (staging) => fill(modules, staging));
  const fonts = join(layer, 'fonts');
  const bytes = readdirSync(fonts, { withFileTypes: true }).filter((entry) => entry.isFile()).reduce((sum, entry) => sum + statSync(join(fonts, entry.name)).size, 0);
  return { path: layer, bytes };
}

function fill(modules: string, staging: string): void {
  const fonts = join(staging, 'fonts');
  mkdirSync(join(fonts, 'licenses'), { recursive: true });
  for (const source of FONT_SOURCES) {
    const dir = packageDir(modules, source.name);
    const files = source.dirs.flatMap((sub) => readdirSync(join(dir, sub)).filter((name) => source.pattern.test(name)).map((name) => join(dir, sub, name)));
    if (files.length === 0) throw new Error(`${source.name} holds no file matching ${source.pattern}`);
    for (const file of files) {
      if (file.endsWith('.woff')) writeFileSync(join(fonts, basename(file).replace(/\.woff$/, '.ttf')), unwrapWoff(readFileSync(file)));
      else copyFileSync(file, join(fonts, basename(file)));
    }
    const license = ['LICENSE_FONT', 'LICENSE'].map((name) => join(dir, name)).find(existsSync);
    if (license) copyFileSync(license, join(fonts, 'licenses', `${source.name.replace(/^@/, '').replace(/\//g, '-')}.txt`));
  }
}
