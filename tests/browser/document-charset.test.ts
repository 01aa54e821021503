/**
 * document-charset.ts on its own, on a bare browser talking https to 127.0.0.1 through the guarded proxy (so that
 * `frame.example` is a site of its own): a labelled document keeps its status, headers and cookies; a frame in a
 * cross-site frame is labelled; one that never ends is held no longer than its share of the budget, and gets what
 * came; one past the body limit is cut there. (tests/app/charset.test.ts checks the pixels through the service.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { startProxy, type GuardedProxy } from '../../lib/browser/proxy.ts';
import { AddressPolicy } from '../../lib/guard/policy.ts';
import { labelDocuments, type DocumentCharsets } from '../../lib/browser/document-charset.ts';
import { Budget } from '../../lib/time/budget.ts';
import { CERT, KEY } from '../fetch/certificate.ts';
import { fixedResolver } from '../fetch/setup.ts';
import { launchBareBrowser } from '../helpers/browser.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { localGuess } from '../helpers/charset.ts';

const TEXT = 'Café — naïve';
const PAGE = Buffer.from(`<!doctype html><title>${TEXT}</title><p>${TEXT}</p>`);

describe('undeclared https documents, labelled by DevTools', () => {
  let site: TestServer;
  let browser: Browser;
  let proxy: GuardedProxy;
  before(async () => {
    site = await startServer(
      {
        '/missing': (_req, res) =>
          void res.writeHead(404, { 'content-type': 'text/html', 'set-cookie': 'seen=1; Path=/', 'x-kept': 'yes' }).end(PAGE),
        // More than one read of the body (READ_BYTES), then nothing, never ending.
        '/stalls': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).write(Buffer.concat([PAGE, Buffer.from(`<!--${'x'.repeat(40_000)}-->`)])),
        // Each frame from another origin than its parent's, whose undeclared charset it would otherwise take.
        '/framing': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<iframe src="https://frame.example:${site.port}/outer"></iframe>`),
        '/outer': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<iframe src="https://127.0.0.1:${site.port}/missing"></iframe>`),
        '/large': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(Buffer.concat([PAGE, Buffer.from(`<p>${'x'.repeat(10_000)}</p>`)])),
      },
      { key: KEY, cert: CERT },
    );
    proxy = await startProxy({ policy: AddressPolicy.fromSetting('127.0.0.1'), resolver: fixedResolver('127.0.0.1'), guess: localGuess });
    browser = await launchBareBrowser(['--ignore-certificate-errors', `--proxy-server=${proxy.url}`, '--proxy-bypass-list=<-loopback>']);
  });
  after(async () => {
    await browser?.close();
    await proxy?.close();
    await site?.close();
  });

  const open = async (budgetMs: number, maxBytes = 1024 * 1024): Promise<{ page: Page; documents: DocumentCharsets }> => {
    const page = await browser.newPage();
    const budget = new Budget(budgetMs);
    return { page, documents: await labelDocuments(page, () => ({ maxBytes, budget }), localGuess) };
  };

  test('a labelled document keeps its status, its other headers and its cookie', async () => {
    const { page, documents } = await open(10_000);
    const response = await page.goto(`${site.url}/missing`);
    assert.equal(response?.status(), 404);
    assert.equal(response?.headers()['x-kept'], 'yes');
    assert.equal(response?.headers()['content-type'], 'text/html;charset=utf-8');
    assert.equal(await page.title(), TEXT);
    assert.equal(await page.evaluate('document.cookie'), 'seen=1');
    assert.equal(documents.sentContentType(new URL(`${site.url}/missing`)), 'text/html');
    await page.close();
  });

  test('a frame inside a cross-site frame is labelled too (Chromium runs it in the page\'s process)', async () => {
    const { page } = await open(10_000);
    await page.goto(`${site.url}/framing`);
    const inner = page.frames().find((frame) => frame.url().endsWith('/missing'));
    assert.equal(await inner?.title(), TEXT);
    await page.close();
  });

  test('a document that never ends is held for its share of the budget, then drawn as far as it came', async () => {
    const { page } = await open(2_000);
    const started = performance.now();
    await page.goto(`${site.url}/stalls`, { waitUntil: 'domcontentloaded', timeout: 10_000 });
    assert.ok(performance.now() - started < 2_000, `held ${Math.round(performance.now() - started)} ms`);
    assert.equal(await page.title(), TEXT);
    assert.equal(await page.$eval('p', (p) => p.textContent), TEXT);
    await page.close();
  });

  test('a document past the body limit is cut at it', async () => {
    const { page } = await open(10_000, PAGE.length);
    await page.goto(`${site.url}/large`);
    assert.equal(await page.title(), TEXT);
    assert.equal(await page.$$eval('p', (found) => found.length), 1);
    await page.close();
  });
});
