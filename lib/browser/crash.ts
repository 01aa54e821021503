/**
 * Why a page's renderer went. Puppeteer's page 'error' is Inspector.targetCrashed, which says only that it did;
 * Chromium's Target.targetCrashed, sent to the browser's root session, carries the termination status as well:
 * "crashed" or "oom" when the renderer failed (the page's doing: its heap past launch.ts's cap, a renderer bug),
 * "killed" when a signal from outside ended it (the system's out-of-memory killer, an operator). Only the first
 * are the page's (EPAGECRASH, kept for others a minute); a kill says nothing about the page.
 */
import type { CDPSession, Page } from 'puppeteer-core';

interface TargetCrashed {
  readonly targetId: string;
  readonly status: string;
}

/** The status of each target that crashed and whose page has not asked yet, by target id (unique across browsers). */
const statuses = new Map<string, string>();
/** Crashes left unasked (a crashed spare, say) are forgotten past this many. */
const KEPT = 64;
const recorded = new WeakSet<object>();

/** Records the crashes of every target of `session`'s browser; `session` is any session on it. */
export function recordCrashes(session: CDPSession): void {
  const connection = session.connection();
  if (!connection || recorded.has(connection)) return;
  recorded.add(connection);
  connection.on('Target.targetCrashed', (event: TargetCrashed) => {
    if (statuses.size >= KEPT) statuses.clear();
    statuses.set(event.targetId, event.status);
  });
}

/**
 * The termination status of `page`'s crashed renderer, read on its 'error' event; undefined when unknown. Chromium
 * sends Target.targetCrashed beside Inspector.targetCrashed, on the same pipe; the next turn of the event loop has both.
 * Puppeteer keeps the target's id as `_targetId` (it has no public accessor); asking Chromium instead means a session
 * on the crashed target, which never answers.
 */
export async function crashStatus(page: Page): Promise<string | undefined> {
  await new Promise((resolve) => setImmediate(resolve));
  const targetId = (page.target() as unknown as { _targetId?: string })._targetId;
  if (targetId === undefined) return undefined;
  const status = statuses.get(targetId);
  statuses.delete(targetId);
  return status;
}

/** A renderer ended by a signal from outside, not by what its page did. */
export const killedFromOutside = (status: string | undefined): boolean => status === 'killed';
