/**
 * Why a page's renderer went. Puppeteer's page 'error' is Inspector.targetCrashed, which says only that it did;
 * Chromium's Target.targetCrashed, sent to the browser's root session, carries the termination status as well:
 * "crashed" or "oom" when the renderer failed (the page's doing: its heap past launch.ts's cap, a renderer bug),
 * "killed" when a signal from outside ended it (the system's out-of-memory killer, an operator). Only the first
 * are the page's (EPAGECRASH, kept for others a minute); a kill says nothing about the page.
 *
 * In single-process mode the renderer is the browser process, whose end no session hears: how the process exited
 * says it instead (processEndedFromOutside).
 */
import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import type { CDPSession, Page } from 'puppeteer-core';
import { Budget } from '../time/budget.ts';

interface TargetCrashed {
  readonly targetId: string;
  readonly status: string;
}

/** The status of each target that crashed and whose page has not asked yet, by target id (unique across browsers). */
const statuses = new Map<string, string>();
/** Crashes left unasked (a crashed spare, say) are forgotten past this many. */
const KEPT = 64;
const recorded = new WeakSet<object>();
/** Pages waiting for their crash's status, by target id. */
const waiters = new Map<string, (status: string) => void>();
/**
 * How long a page whose renderer went waits for Target.targetCrashed: it comes on the browser's root session, beside
 * the page's Inspector.targetCrashed but not always in the same turn of the event loop (a CI run read it late).
 */
const STATUS_WAIT_MS = 1_000;

/** Records the crashes of every target of `session`'s browser; `session` is any session on it. */
export function recordCrashes(session: CDPSession): void {
  const connection = session.connection();
  if (!connection || recorded.has(connection)) return;
  recorded.add(connection);
  connection.on('Target.targetCrashed', (event: TargetCrashed) => {
    const waiter = waiters.get(event.targetId);
    if (waiter) return void (waiters.delete(event.targetId), waiter(event.status));
    if (statuses.size >= KEPT) statuses.clear();
    statuses.set(event.targetId, event.status);
  });
}

/**
 * The termination status of `page`'s crashed renderer, read on its 'error' event; undefined when unknown. Chromium
 * sends Target.targetCrashed beside Inspector.targetCrashed, on the same pipe; it is waited for up to STATUS_WAIT_MS.
 * Puppeteer keeps the target's id as `_targetId` (it has no public accessor); asking Chromium instead means a session
 * on the crashed target, which never answers.
 */
export async function crashStatus(page: Page): Promise<string | undefined> {
  const targetId = (page.target() as unknown as { _targetId?: string })._targetId;
  if (targetId === undefined) return undefined;
  const known = statuses.get(targetId);
  if (known !== undefined) return (statuses.delete(targetId), known);
  const status = await Budget.cap(new Promise<string>((resolve) => waiters.set(targetId, resolve)), STATUS_WAIT_MS, undefined);
  waiters.delete(targetId);
  return status;
}

/** A renderer ended by a signal from outside, not by what its page did. */
export const killedFromOutside = (status: string | undefined): boolean => status === 'killed';

/**
 * The signals another process sends to end one: the system's out-of-memory killer (SIGKILL), an operator or a
 * supervisor. A crash the page causes is a signal the process raises itself, never one of these: measured with
 * `--single-process`, V8 out of memory under launch.ts's heap cap and Page.crash both end it with SIGTRAP; a
 * renderer bug with SIGSEGV, SIGABRT or SIGTRAP.
 */
const OUTSIDE_SIGNALS = ['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP'] as const;
/** Chromium handles SIGTERM, SIGINT and SIGHUP itself and exits with 128 + the signal's number (143 for SIGTERM). */
const OUTSIDE_CODES = new Set<number>(OUTSIDE_SIGNALS.map((signal) => 128 + constants.signals[signal]));
/**
 * How long a browser whose pipe closed may take to exit: measured up to 240 ms after a SIGTERM on a loaded machine
 * (Chromium shuts down first), a few ms after a crash or a SIGKILL.
 */
const EXIT_WAIT_MS = 1_000;

/**
 * Whether the browser process `child` (a single-process browser, its page's renderer) was ended by a signal from
 * outside, waiting for it to exit if it has not yet. False when it exited otherwise, or not within EXIT_WAIT_MS.
 */
export async function processEndedFromOutside(child: ChildProcess | null): Promise<boolean> {
  if (!child) return false;
  if (child.exitCode === null && child.signalCode === null) {
    await Budget.cap(new Promise((resolve) => child.once('exit', resolve)), EXIT_WAIT_MS, undefined);
  }
  const { exitCode, signalCode } = child;
  return (signalCode !== null && (OUTSIDE_SIGNALS as readonly string[]).includes(signalCode)) || (exitCode !== null && OUTSIDE_CODES.has(exitCode));
}
