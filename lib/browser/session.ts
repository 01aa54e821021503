/**
 * Glance's own DevTools session on a page: one per page, never detached before the page closes. Chromium keeps an
 * emulated media type per session; at a navigation the last session attached decides it (one that set none clears
 * it), and a session's detach clears it too. So the page's media is emulated on this session alone (page.ts), and
 * every part of Glance that needs a session on the page (consent banners, https charsets, capture, scrolling)
 * shares it: a session of their own would turn `mediaType=print` back into screen.
 */
import type { CDPSession, Page } from 'puppeteer-core';

const sessions = new WeakMap<Page, Promise<CDPSession>>();

export function glanceSession(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = page.createCDPSession();
    sessions.set(page, session);
  }
  return session;
}
