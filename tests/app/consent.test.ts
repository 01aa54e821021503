/**
 * `adblock` and consent banners, end to end: pages that reproduce what autoconsent detects of OneTrust, Cookiebot,
 * TrustArc, Usercentrics and Sourcepoint (their element ids, their script globals, Sourcepoint's message in a
 * cross-site frame) are captured with a solid black banner at the bottom. With `adblock` (the default) the banner
 * is refused through the tool's own reject control, which turns a strip at the top of the page green, and is gone
 * from the capture; `adblock=false` captures it. The pages are served under public-looking names that every lookup
 * resolves to this machine's test server, never as 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import type { Resolver } from '../../lib/guard/lookup.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

const SITE_HOST = 'news.example';
/** Sourcepoint's messages come from a host of their own: a cross-site frame, in a renderer of its own. */
const MESSAGE_HOST = 'cdn.privacy-mgmt.example';
const everythingHere: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

const BANNER = 'position:fixed;left:0;right:0;bottom:0;height:240px;background:#000;color:#fff;margin:0;border:0';

/**
 * The page around a banner: `refused()`, for the tool's reject control, removes the banner and turns the top strip
 * green, or magenta when the page's own world can see autoconsent (it must run in a world of its own).
 */
const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title>
<style>body{margin:0;background:#fff} #status{height:100px;background:#fff} button{color:#fff;background:#000;border:0}</style></head>
<body><div id="status"></div><h1>${title}</h1>
<script>
function refused(banner) {
  banner.remove();
  const leaked = 'autoconsentReceiveMessage' in window || 'autoconsentSendMessage' in window || '__glanceConsentSend' in window;
  document.getElementById('status').style.background = leaked ? '#f0f' : '#0a0';
}
</script>
${body}</body></html>`;

// Each tool's banner as its script inserts it: synchronously here, so that the first detection finds it.
const FIXTURES: Record<string, (port: number) => string> = {
  onetrust: () =>
    page('OneTrust', `<div id="onetrust-consent-sdk"></div><script>
window.OnetrustActiveGroups = ',C0001,C0002,';
document.getElementById('onetrust-consent-sdk').innerHTML = '<div id="onetrust-banner-sdk" style="${BANNER}"><p>We use cookies.</p>' +
  '<button id="onetrust-accept-btn-handler">Accept All</button><button id="onetrust-reject-all-handler">Reject All</button></div>';
document.getElementById('onetrust-reject-all-handler').onclick = () => {
  window.OnetrustActiveGroups = ',C0001,';
  refused(document.getElementById('onetrust-banner-sdk'));
};
</script>`),
  cookiebot: () =>
    page('Cookiebot', `<div id="CybotCookiebotDialog" style="${BANNER}"><p>This website uses cookies.</p>
<button id="CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll">Allow all</button>
<button id="CybotCookiebotDialogBodyLevelButtonLevelOptinDeclineAll">Deny</button></div><script>
const dialog = document.getElementById('CybotCookiebotDialog');
window.Cookiebot = {
  hasResponse: false, declined: false, dialog: { visible: true },
  withdraw() { this.hasResponse = true; this.declined = true; },
  hide() { this.dialog.visible = false; refused(dialog); },
};
document.getElementById('CybotCookiebotDialogBodyLevelButtonLevelOptinDeclineAll').onclick = () => {
  window.Cookiebot.withdraw();
  window.Cookiebot.hide();
};
</script>`),
  // The page's own Promise.prototype.catch answers a megabyte for every call: the main-world checks must still read
  // as a boolean (and never carry that string back by value).
  'cookiebot-catch': (port) =>
    FIXTURES.cookiebot!(port).replace('<script>', '<script>Promise.prototype.catch = function () { return "x".repeat(1 << 20); };\n'),
  trustarc: () =>
    page('TrustArc', `<div id="truste-consent-track" style="${BANNER}"><div id="truste-consent-content"><p>Cookies help us.</p>
<button id="truste-consent-button">Accept All Cookies</button><button id="truste-consent-required">Required Only</button>
<button id="truste-show-consent">Cookie Preferences</button></div></div><script>
window.truste = { eu: { bindMap: { prefCookie: undefined } } };
document.getElementById('truste-consent-required').onclick = () => {
  window.truste.eu.bindMap.prefCookie = '0';
  refused(document.getElementById('truste-consent-track'));
};
</script>`),
  usercentrics: () =>
    page('Usercentrics', `<div id="usercentrics-root" style="${BANNER}"></div><script>
const root = document.getElementById('usercentrics-root');
const shadow = root.attachShadow({ mode: 'open' });
shadow.innerHTML = '<div data-testid="uc-container"><p style="color:#fff">We value your privacy.</p>' +
  '<button data-testid="uc-accept-all-button">Accept All</button><button data-testid="uc-deny-all-button">Deny</button></div>';
let accepted = true;
window.UC_UI = {
  isInitialized: () => true,
  areAllConsentsAccepted: () => accepted,
  denyAllConsents() { accepted = false; refused(root); return true; },
  acceptAllConsents() { return true; },
  closeCMP() { return true; },
};
shadow.querySelector('[data-testid=uc-deny-all-button]').onclick = () => window.UC_UI.denyAllConsents();
</script>`),
  sourcepoint: (port) =>
    page('Sourcepoint', `<div id="sp_message_container_1234" style="${BANNER}">
<iframe src="http://${MESSAGE_HOST}:${port}/index.html?message_id=1234&consentUUID=x" style="width:100%;height:100%;border:0"></iframe></div><script>
addEventListener('message', (event) => {
  if (event.data === 'sp-reject') refused(document.getElementById('sp_message_container_1234'));
});
</script>`),
};

/** Sourcepoint's message, in its own frame: black, with its choice buttons. */
const MESSAGE = `<!doctype html><html><head><title>Notice</title></head><body style="margin:0;background:#000;color:#fff">
<div class="message type-modal"><p>We and our partners use cookies.</p>
<button class="sp_choice_type_11">Accept</button><button class="sp_choice_type_12">Options</button>
<button class="sp_choice_type_13">Reject all</button></div>
<script>document.querySelector('.sp_choice_type_13').onclick = () => parent.postMessage('sp-reject', '*');</script></body></html>`;

describe('consent banners through the service', () => {
  let site: TestServer;
  let service: Service;
  before(async () => {
    site = await startServer({ '/index.html': html(MESSAGE) });
    for (const [name, fixture] of Object.entries(FIXTURES)) site.route(`/${name}`, html(fixture(site.port)));
    service = await startService({ resolver: everythingHere, prepared: true });
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  const capture = async (path: string, query: string) => {
    const { status, body } = await service.json(q(`http://${SITE_HOST}:${site.port}${path}`, `screenshot&meta=false&force&${query}`));
    assert.equal(status, 200, JSON.stringify(body));
    return PNG.sync.read(Buffer.from(await (await fetch(body.data.screenshot.url)).arrayBuffer()));
  };
  /** Share of the pixels in `rows` image rows (from the top, or from the bottom when negative) that `is` holds for. */
  const share = (png: PNG, rows: number, is: (r: number, g: number, b: number) => boolean) => {
    let count = 0;
    const first = rows < 0 ? png.height + rows : 0;
    for (let y = first; y < first + Math.abs(rows); y++) {
      for (let x = 0; x < png.width; x++) {
        const i = (y * png.width + x) * 4;
        if (is(png.data[i]!, png.data[i + 1]!, png.data[i + 2]!)) count++;
      }
    }
    return count / (Math.abs(rows) * png.width);
  };
  const darkBottom = (png: PNG) => share(png, -100, (r, g, b) => r < 64 && g < 64 && b < 64);
  const greenTop = (png: PNG) => share(png, 90, (r, g, b) => r < 40 && g > 140 && b < 40);

  for (const name of Object.keys(FIXTURES)) {
    test(`${name}: refused and gone with adblock, captured with adblock=false`, async () => {
      const [clean, banner] = await Promise.all([capture(`/${name}`, ''), capture(`/${name}`, 'adblock=false')]);
      assert.equal(darkBottom(clean), 0, `banner pixels with adblock: ${darkBottom(clean)}`);
      assert.ok(greenTop(clean) > 0.95, `the banner was not refused through its own control (green: ${greenTop(clean)})`);
      assert.ok(darkBottom(banner) > 0.95, `banner pixels with adblock=false: ${darkBottom(banner)}`);
      assert.equal(greenTop(banner), 0);
    });
  }
});
