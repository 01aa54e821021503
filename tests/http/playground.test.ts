/**
 * The playground (lib/http/playground/): a browser at the bare address gets a page that drives the API; every
 * program keeps the API's answer there. The page is driven in headless Chromium against the local service, with
 * a page of hostile metadata to prove answer data is never run.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import mql from '@microlink/mql';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Browser, Page } from 'puppeteer-core';
import { createHandler } from '../../functions/api.ts';
import { loadConfig } from '../../lib/config.ts';
import { contentSecurityPolicy } from '../../lib/http/playground/index.ts';
import { launchBareBrowser } from '../helpers/browser.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { startApp, startService, type Service } from '../helpers/service.ts';
import { png } from '../ping/fixtures.ts';

/** What Chromium sends on a navigation. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

const getApiUrl = (mql as unknown as { getApiUrl(url: string, opts: object): [string, unknown] }).getApiUrl;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('the playground at GET / in process', () => {
  let open: Service;
  let keyed: Service;
  before(async () => {
    open = await startApp();
    keyed = await startApp({ env: { GLANCE_API_KEYS: 'the-key' } });
  });
  after(async () => Promise.all([open.close(), keyed.close()]));

  test('programs keep the JSON answer at the bare address: EINVALURL, the API CSP, no-store', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.9']) {
      const { status, headers, body } = await open.json('', accept ? { headers: { accept } } : {});
      assert.equal(status, 400, String(accept));
      assert.equal(body.code, 'EINVALURL');
      assert.equal(headers.get('cache-control'), 'no-store');
      assert.match(headers.get('content-security-policy') ?? '', /sandbox/);
    }
  });

  test('the page links agents to the MCP endpoint and its documentation', async () => {
    const page = await (await open.request('', { headers: { accept: BROWSER_ACCEPT } })).text();
    assert.match(page, /<a id="mcp" href="\/mcp">/);
    assert.match(page, /href="https:\/\/github\.com\/glance-api\/glance\/blob\/HEAD\/docs\/parameters\.md#mcp-ai-agents"/);
  });

  test('a browser gets the page, under a CSP that allows its inline script and style by hash only', async () => {
    const response = await open.request('', { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(response.headers.get('cache-control'), 'no-store', 'the edge never keeps it: its key has no Accept');
    assert.equal(response.headers.get('vary'), 'accept');
    const policy = response.headers.get('content-security-policy') ?? '';
    const page = await response.text();
    const script = /<script>([\s\S]*)<\/script>/.exec(page)?.[1] ?? '';
    const style = /<style>([\s\S]*)<\/style>/.exec(page)?.[1] ?? '';
    assert.ok(script.length > 1000 && style.length > 500);
    assert.match(policy, new RegExp(`script-src ${sha256(script).replace(/[+/]/g, '\\$&')};`));
    assert.match(policy, new RegExp(`style-src ${sha256(style).replace(/[+/]/g, '\\$&')};`));
    for (const directive of ["default-src 'none'", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'", "require-trusted-types-for 'script'"]) {
      assert.ok(policy.includes(directive), directive);
    }
    assert.ok(!/unsafe-inline|unsafe-eval|sandbox/.test(policy));
    assert.doesNotMatch(page, /<script[^>]+src|<link[^>]+stylesheet|@import|url\(/, 'nothing loaded from elsewhere');
    assert.equal(page.match(/<script/g)?.length, 1);
    assert.doesNotMatch(page, /id="key"/, 'an open deployment asks for no key');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
  });

  test('HEAD answers the same headers without a body; a query string or another method is the API again', async () => {
    const head = await open.request('', { method: 'HEAD', headers: { accept: BROWSER_ACCEPT } });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await head.text(), '');
    const query = await open.json('screenshot', { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(query.body.code, 'EINVALURL');
    const post = await open.json('', { method: 'POST', headers: { accept: BROWSER_ACCEPT } });
    assert.equal(post.body.code, 'EMETHOD');
    const hop = await open.json('', { headers: { accept: BROWSER_ACCEPT, 'x-glance-hop': '2' } });
    assert.equal(hop.body.code, 'ELOOP');
  });

  test('a keyed deployment serves the page without a key and asks for one in it; programs still get EAUTH', async () => {
    const page = await keyed.request('', { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /id="key"/);
    const program = await keyed.json('');
    assert.equal(program.status, 401);
    assert.equal(program.body.code, 'EAUTH');
    const withUrl = await keyed.json('url=https%3A%2F%2Fexample.com%2F', { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(withUrl.body.code, 'EAUTH', 'a browser asking for an answer needs the key like anyone');
  });

  test('in Lambda (https behind CloudFront) http images are upgraded, not allowed', async () => {
    const handler = createHandler(loadConfig({ AWS_LAMBDA_FUNCTION_NAME: 'glance', AWS_REGION: 'us-east-1', GLANCE_CACHE: 'off' }));
    const event = {
      version: '2.0',
      routeKey: 'GET /',
      rawPath: '/',
      rawQueryString: '',
      headers: { Accept: BROWSER_ACCEPT },
      requestContext: { requestId: 'apigw-1', timeEpoch: Date.now(), http: { method: 'GET', path: '/' } },
      isBase64Encoded: false,
    } as unknown as APIGatewayProxyEventV2;
    const context = { awsRequestId: 'req-1', functionName: 'glance', getRemainingTimeInMillis: () => 30_000 } as Context;
    try {
      const result = (await handler(event, context)) as APIGatewayProxyStructuredResultV2;
      assert.equal(result.statusCode, 200);
      assert.match(String(result.body), /<title>Glance playground<\/title>/);
      const policy = String(result.headers?.['content-security-policy']);
      assert.equal(policy, contentSecurityPolicy({ plainHttp: false }));
      assert.match(policy, /img-src 'self' data: https:;/);
      assert.match(policy, /upgrade-insecure-requests/);
    } finally {
      await handler.close();
    }
  });
});

/** The page's own report: CSP violations and errors seen by the page, read after the run. */
const WATCH = `
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__violations.push(event.violatedDirective + ' ' + event.blockedURI);
  });
`;

describe('the playground in a browser, against the local service', { timeout: 120_000 }, () => {
  let site: TestServer;
  let service: Service;
  let browser: Browser;
  before(async () => {
    site = await startServer({
      '/': html(
        '<!doctype html><html lang="en"><head><title>Playground target</title>' +
          '<meta name="description" content="A page to preview in the playground">' +
          '<meta property="og:image" content="/og.png"><meta property="og:site_name" content="Test Site">' +
          '<link rel="icon" sizes="32x32" href="/icon.png"></head><body><h1>Hello there</h1></body></html>',
      ),
      '/hostile': html(
        '<!doctype html><html><head><title><img src=x onerror="window.__pwned=1;console.error(\'pwned\')"></title>' +
          '<meta name="description" content="&lt;img src=y onerror=&quot;window.__pwned=2&quot;&gt;">' +
          '<meta property="og:image" content="javascript:window.__pwned=3"></head>' +
          '<body><h1><img src=z onerror="window.__pwned=4">Heading</h1></body></html>',
      ),
      '/og.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(png(120, 63)),
      '/icon.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(png(32, 32)),
    });
    service = await startService();
    browser = await launchBareBrowser();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
    await site?.close();
  });

  async function open(): Promise<{ page: Page; errors: string[]; policy: string }> {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.evaluateOnNewDocument(WATCH);
    const response = await page.goto(`${service.url}/`, { waitUntil: 'load' });
    return { page, errors, policy: response?.headers()['content-security-policy'] ?? '' };
  }

  const read = (page: Page, expression: string) => page.evaluate(expression) as Promise<unknown>;

  async function submit(page: Page, target: string, tick: string[], rule?: { name: string; selector: string; attr: string }): Promise<void> {
    await page.type('#url', target);
    for (const id of tick) await page.click(id);
    if (rule) {
      await page.type('#rule-name', rule.name);
      await page.type('#rule-selector', rule.selector);
      await page.type('#rule-attr', rule.attr);
    }
    await page.click('#submit');
    await page.waitForFunction("document.querySelector('#json').textContent !== '' && !document.querySelector('#submit').disabled", { timeout: 60_000 });
  }

  test('submits a URL with a screenshot: the JSON, the card, the screenshot, the request URL and the mql snippet', async () => {
    const { page, errors, policy } = await open();
    assert.equal(policy, contentSecurityPolicy({ plainHttp: true }));
    const target = `${site.url}/`;
    await submit(page, target, ['#screenshot']);

    const answer = JSON.parse(String(await read(page, "document.querySelector('#json').textContent")));
    assert.equal(answer.status, 'success', JSON.stringify(answer));
    assert.equal(answer.data.title, 'Playground target');
    assert.equal(await read(page, "document.querySelector('.card-title').textContent"), 'Playground target');
    assert.equal(await read(page, "document.querySelector('.card-description').textContent"), 'A page to preview in the playground');
    assert.match(String(await read(page, "document.querySelector('.card-footer').textContent")), /Test Site/);
    await page.waitForFunction("document.querySelector('#shot').complete && document.querySelector('.card-image').complete", { timeout: 30_000 });
    assert.ok(Number(await read(page, "document.querySelector('#shot').naturalWidth")) > 0, 'the screenshot loaded');
    assert.equal(await read(page, "document.querySelector('#shot').src"), answer.data.screenshot.url);
    assert.equal(await read(page, "document.querySelector('.card-image').naturalWidth"), 120, 'the preview image loaded');

    const requestUrl = String(await read(page, "document.querySelector('#request').value"));
    const snippet = String(await read(page, "document.querySelector('#snippet').textContent"));
    assert.ok(requestUrl.includes(encodeURIComponent(target)));
    assert.ok(snippet.includes(`'${target}'`) && snippet.includes('screenshot: true') && snippet.includes(`endpoint: '${service.url}/'`), snippet);
    // The snippet, run as mql would, asks exactly the request shown.
    const call = /await mql\(([\s\S]*)\)\s*$/.exec(snippet)?.[1] ?? '';
    const [url, opts] = new Function(`return [${call}]`)() as [string, object];
    assert.equal(getApiUrl(url, opts)[0], requestUrl);
    const direct = await service.json(requestUrl.slice(requestUrl.indexOf('?') + 1));
    assert.equal(direct.body.data.title, 'Playground target');

    await page.click('[data-copy="request"]');
    await page.waitForFunction("document.querySelector('[data-copy=\"request\"]').textContent !== 'Copy'");
    assert.deepEqual(await read(page, 'window.__violations'), []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('overlay, pdf and a data rule reach the request URL and the snippet as mql would send them', async () => {
    const { page, errors } = await open();
    await page.select('#overlay', 'dark');
    await submit(page, `${site.url}/`, ['#pdf'], { name: 'heading', selector: 'h1', attr: 'text' });
    const requestUrl = new URL(String(await read(page, "document.querySelector('#request').value")));
    assert.equal(requestUrl.searchParams.get('screenshot.overlay.browser'), 'dark');
    assert.equal(requestUrl.searchParams.get('pdf'), 'true');
    assert.equal(requestUrl.searchParams.get('data.heading.selector'), 'h1');
    const answer = JSON.parse(String(await read(page, "document.querySelector('#json').textContent")));
    assert.equal(answer.data.heading, 'Hello there');
    assert.match(answer.data.pdf.url, /\.pdf$/);
    assert.equal(await read(page, "document.querySelector('#pdf-link').href"), answer.data.pdf.url);
    const snippet = String(await read(page, "document.querySelector('#snippet').textContent"));
    const [url, opts] = new Function(`return [${/await mql\(([\s\S]*)\)\s*$/.exec(snippet)?.[1]}]`)() as [string, object];
    assert.equal(getApiUrl(url, opts)[0], requestUrl.href);
    assert.deepEqual(await read(page, 'window.__violations'), []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('markup in the answer is shown as text and never runs', async () => {
    const { page, errors } = await open();
    await submit(page, `${site.url}/hostile`, [], { name: 'heading', selector: 'h1', attr: 'html' });
    const answer = JSON.parse(String(await read(page, "document.querySelector('#json').textContent")));
    assert.equal(answer.status, 'success');
    assert.match(answer.data.title, /^<img src=x onerror=/);
    assert.match(answer.data.heading, /<img src="?z"? onerror=/);
    assert.equal(await read(page, "document.querySelector('.card-title').textContent"), answer.data.title);
    assert.equal(await read(page, "document.querySelector('.card-description').textContent"), answer.data.description);
    // Give an injected image time to fail and fire its handler, were there one.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await read(page, 'window.__pwned'), undefined);
    assert.equal(await read(page, "document.querySelectorAll('img[src=\"x\"], img[src=\"y\"], img[src=\"z\"], img[onerror]').length"), 0);
    assert.equal(await read(page, "document.querySelector('.card-image')"), null, 'a javascript: image is never used');
    assert.deepEqual(await read(page, 'window.__violations'), []);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
