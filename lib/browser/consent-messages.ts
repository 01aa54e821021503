/**
 * The messages autoconsent's content script sends Glance (lib/browser/consent.ts), checked before anything is done
 * with them. The script runs in an isolated world the page's own scripts cannot reach, but it reads the page, and a
 * message is only a string from a renderer: whatever does not have the shape below, or is longer than a message
 * of autoconsent ever is, is dropped, never parsed past its length, never thrown.
 * See the package's lib/messages.ts for the whole protocol; these are the ones Glance acts on.
 */

/** A report's or an eval's JSON is well under 1 KB; a report carries the frame's address, so a long one is allowed. */
export const MAX_MESSAGE_CHARS = 32_768;
const MAX_ID_CHARS = 64;

/** Where autoconsent is in a frame (its lib/types.ts LifecycleState), and how many looks for a tool it began. */
export interface ConsentReport {
  readonly type: 'report';
  readonly lifecycle: string;
  readonly attempts: number;
}

/** A consent tool found in the frame; its banner is looked for next. */
export interface ConsentFound {
  readonly type: 'cmpDetected';
}

/** A request to run one of autoconsent's named snippets in the frame's own world. */
export interface ConsentEval {
  readonly type: 'eval';
  readonly id: string;
  readonly snippetId: string;
}

/**
 * A frame's first word: its address, and whether it is the page's top frame (Glance's own addition, made in the
 * frame's isolated world). It is answered with the configuration and the rules for that frame.
 */
export interface ConsentInit {
  readonly type: 'init';
  readonly url: string;
  readonly mainFrame: boolean;
}

export type ConsentMessage = ConsentReport | ConsentFound | ConsentEval | ConsentInit;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const shortString = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_CHARS;

/** The message in `payload`, or undefined for anything that is not one of these, well formed. */
export function parseConsentMessage(payload: string): ConsentMessage | undefined {
  if (payload.length > MAX_MESSAGE_CHARS) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (!isRecord(message)) return undefined;
  if (message['type'] === 'report') {
    const state = message['state'];
    if (!isRecord(state) || !shortString(state['lifecycle'])) return undefined;
    const attempts = state['findCmpAttempts'];
    if (typeof attempts !== 'number' || !Number.isSafeInteger(attempts) || attempts < 0) return undefined;
    return { type: 'report', lifecycle: state['lifecycle'], attempts };
  }
  if (message['type'] === 'cmpDetected') return { type: 'cmpDetected' };
  if (message['type'] === 'eval') {
    const { id, snippetId } = message;
    if (!shortString(id) || !shortString(snippetId)) return undefined;
    return { type: 'eval', id, snippetId };
  }
  if (message['type'] === 'init') {
    const { url, mainFrame } = message;
    if (typeof url !== 'string' || typeof mainFrame !== 'boolean') return undefined;
    return { type: 'init', url, mainFrame };
  }
  return undefined;
}
