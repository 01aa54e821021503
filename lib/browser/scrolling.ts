/**
 * Whether scrolling a page can change what a full-page capture shows (issue 16). The hydration pass (actions.ts
 * `hydrate`) scrolls through a page for content that comes in as it comes into view, which takes one of: a
 * `loading=lazy` image or iframe, an IntersectionObserver, a `scroll` or `scrollend` listener on the window or the
 * document (a scroll of the page fires there; `<body onscroll>` is the window's), or a frame, whose own document
 * is not looked at here. A page with none of them shows the same pixels however it is scrolled, and is spared the
 * pass (about one frame per viewport of page, and a repaint at each step).
 *
 * Read from outside the page, through the DevTools protocol, rather than counted by a script added to it: nothing
 * in the page is wrapped or added (bot checks look for wrapped native functions), and no page script can undo the
 * count. The observers are found by a walk of the page's heap for objects whose prototype chain holds
 * IntersectionObserver's (`Runtime.queryObjects`, a garbage collection first, a few tens of ms: done last, only
 * when the cheaper checks found nothing). Anything that fails — a page that replaced `IntersectionObserver`, a
 * closed page — answers true, the pass as before.
 */
import type { CDPSession, Page } from 'puppeteer-core';
import { glanceSession } from './session.ts';

const LAZY = 'img[loading="lazy" i], iframe[loading="lazy" i]';
const SCROLL_EVENTS = new Set(['scroll', 'scrollend']);
/** Released with the session; named so that nothing else's objects are. */
const GROUP = 'glance-scrolling';

interface RemoteObject {
  objectId?: string;
  value?: unknown;
}

async function evaluate(session: CDPSession, expression: string, returnByValue = false): Promise<RemoteObject> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', { expression, objectGroup: GROUP, returnByValue, silent: true });
  if (exceptionDetails) throw new Error(`${expression} threw in the page`);
  return result;
}

async function objectId(session: CDPSession, expression: string): Promise<string> {
  const { objectId: id } = await evaluate(session, expression);
  if (!id) throw new Error(`${expression} is not an object`);
  return id;
}

async function listensToScroll(session: CDPSession, id: string): Promise<boolean> {
  const { listeners } = await session.send('DOMDebugger.getEventListeners', { objectId: id });
  return listeners.some((listener) => SCROLL_EVENTS.has(listener.type));
}

/** How many objects have IntersectionObserver's prototype in their chain (its subclasses' prototypes count too). */
async function observers(session: CDPSession): Promise<number> {
  const prototype = await objectId(session, 'IntersectionObserver.prototype');
  const { objects } = await session.send('Runtime.queryObjects', { prototypeObjectId: prototype, objectGroup: GROUP });
  if (!objects.objectId) throw new Error('queryObjects answered no array');
  const { result } = await session.send('Runtime.callFunctionOn', {
    objectId: objects.objectId,
    functionDeclaration: 'function () { return this.length; }',
    returnByValue: true,
  });
  if (typeof result.value !== 'number') throw new Error('queryObjects answered no count');
  return result.value;
}

export async function reactsToScrolling(page: Page): Promise<boolean> {
  if (page.frames().length > 1) return true;
  const session = await glanceSession(page);
  try {
    const [lazy, window, document] = await Promise.all([
      evaluate(session, `document.querySelector(${JSON.stringify(LAZY)}) !== null`, true),
      objectId(session, 'window'),
      objectId(session, 'document'),
    ]);
    if (lazy.value !== false) return true;
    const listening = await Promise.all([listensToScroll(session, window), listensToScroll(session, document)]);
    if (listening.some(Boolean)) return true;
    return (await observers(session)) > 0;
  } catch {
    return true;
  } finally {
    // The session is the page's (session.ts) and stays: what this looked at is let go by its group.
    await session.send('Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => undefined);
  }
}
