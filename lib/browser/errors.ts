/**
 * Browser errors become catalogue errors here, at the edge that meets them (browserless' habit): a few coded
 * errors with messages that say what happened, the original kept as `cause`.
 */
import { GlanceError, invalidParam } from '../errors.ts';
import type { GuardedProxy } from './proxy.ts';

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Puppeteer's TimeoutError, recognised by name so this module need not load puppeteer. */
export const isTimeout = (error: unknown): boolean => error instanceof Error && error.name === 'TimeoutError';

/**
 * The page, its context or the whole browser went away under us (renderer crash, killed process, closed pipe,
 * or a document replaced mid-capture by a late client-side redirect): worth one retry in a fresh context.
 */
const GONE =
  /Target (?:closed|crashed)|Page crashed|Session closed|Connection closed|browser has disconnected|frame was detached|No target with given id|Failed to find browser context|Execution context was destroyed/i;
export const isGone = (error: unknown): boolean => GONE.test(messageOf(error));

/** The page crashed its own renderer (V8 out of memory under launch.ts's heap cap, or a renderer bug). */
export const pageCrashed = (subject: string, cause?: unknown): GlanceError =>
  new GlanceError(
    'EPAGECRASH',
    `Rendering ${subject} crashed the browser's renderer (the page may have run out of memory); it is not tried again.`,
    { cause },
  );

/** The page's renderer was killed from outside (crash.ts): ours, never cached, worth a retry by the caller. */
export const rendererKilled = (subject: string, cause?: unknown): GlanceError =>
  new GlanceError('EFATAL', `The browser's renderer was killed from outside while rendering ${subject} (out of memory on the machine, or an operator); try again.`, { cause });

export function browserTimeout(url: string, phase: string, budgetMs: number, cause?: unknown): GlanceError {
  return new GlanceError(
    'EBRWSRTIMEOUT',
    `The browser ran out of its ${budgetMs} ms budget ${phase} ${url}: raise \`timeout\`, or ask for less (waitUntil, waits, fullPage).`,
    { cause },
  );
}

/** `net::ERR_NAME_NOT_RESOLVED at https://…` → `ERR_NAME_NOT_RESOLVED`. */
const netCode = (error: unknown): string | undefined => /net::(ERR_[A-Z_]+)/.exec(messageOf(error))?.[1];

/**
 * Why the main document did not load. The proxy knows best: a refusal is EFORBIDDENURL, an unreachable target
 * EFETCH with the reason in words. What only Chromium saw (TLS, a reset mid-body, a download) is EFETCH too.
 */
export function documentFailure(error: unknown, failedUrl: string, proxy: GuardedProxy): GlanceError {
  if (error instanceof GlanceError) return error;
  const known = URL.canParse(failedUrl) ? proxy.failureFor(new URL(failedUrl)) : undefined;
  if (known) return known.error;
  const code = netCode(error);
  if (code === 'ERR_TOO_MANY_REDIRECTS') {
    return new GlanceError('EMAXREDIRECTS', `The target redirected too many times, last to ${failedUrl}.`, { cause: error });
  }
  const reason =
    code === 'ERR_ABORTED'
      ? 'the browser was not given a page (the response may be a download or empty)'
      : code?.startsWith('ERR_CERT_') || code?.startsWith('ERR_SSL_')
        ? `TLS error (${code})`
        : code
          ? `the browser reported ${code}`
          : messageOf(error);
  return new GlanceError('EFETCH', `Could not load ${failedUrl} in the browser: ${reason}.`, { cause: error });
}

/** EINVALQUERY naming the parameter whose selector Chromium cannot parse. */
export const invalidSelector = (param: string, selector: string): GlanceError =>
  invalidParam(param, `"${selector}" is not a valid CSS selector`);
