/**
 * Consent banners (docs/parameters.md "Adblock"): with `adblock`, DuckDuckGo's autoconsent runs in every frame of the page as its
 * own browser-automation integration runs it (the package's docs/puppeteer.md and playwright/runner.ts): its
 * content-script build from document start, answered over a binding. It finds the consent tool by its rules, the
 * declarative ones and the code-based ones (OneTrust, Cookiebot, TrustArc, Sourcepoint…), opts out where the tool
 * offers it, and keeps the tool's banner hidden while it looks (its "prehide") and where only hiding is possible
 * (its cosmetic rules). `settled` waits, within a cap, for the opt-outs under way before the capture.
 *
 * Unlike the integration's example, the script and its binding live in an isolated world of each frame, not in the
 * page's own: the page's scripts cannot call the binding nor reach autoconsent's objects (only the DOM is shared).
 * Messages are still checked (consent-messages.ts), and what runs in the page's own world is only autoconsent's
 * named snippets, taken from Glance's copy of the package, never code a message carries. Frames in other processes
 * (cross-site iframes, where Sourcepoint's banner lives) are attached through the page's session, held paused until
 * they are set up. Nothing here fetches: what a click sets off goes through the page's guarded interception and
 * proxy like any other request.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CDPSession, Page, Protocol } from 'puppeteer-core';
import { Budget } from '../time/budget.ts';
import { parseConsentMessage, type ConsentEval } from './consent-messages.ts';
import { glanceSession } from './session.ts';

/** The isolated world autoconsent runs in, and the binding it sends through (both per frame). */
const WORLD = '__glance_consent__';
const BINDING = '__glanceConsentSend';

/** autoconsent gives up on an eval answer after 1 s (its lib/eval-handler.ts); a snippet's run is cut there too. */
const EVAL_MS = 1000;
/**
 * How long a tool found in a frame counts as about to show its banner: autoconsent checks for the banner at once and
 * again every 500 ms; one that is not shown by then is not on the page now, and the capture does not wait for it.
 */
const POPUP_CHECK_MS = 1000;
/**
 * A frame's first look for a tool ends with its last snippet answered and nothing said since for this long: what
 * autoconsent does after an answer (the next rule, a tool found) is a few ms of its own work and one message.
 */
const LOOK_QUIET_MS = 100;
/** Messages answered per page: autoconsent sends a few tens per frame; past this a page of frames gets no more. */
const MAX_MESSAGES = 5000;

/**
 * The settings Glance runs autoconsent with (the package's lib/types.ts Config): opt out, prehide on, no heuristics
 * (they click buttons by their wording, beyond the rules). The prehide lasts the page's life: a banner of a tool
 * still being looked for stays hidden in the capture; autoconsent lifts it itself once it knows there is none.
 */
const CONFIG = {
  enabled: true,
  autoAction: 'optOut',
  disabledCmps: [],
  enablePrehide: true,
  enableCosmeticRules: true,
  enableGeneratedRules: true,
  enableHeuristicDetection: false,
  heuristicMode: 'off',
  detectRetries: 20,
  isMainWorld: false,
  prehideTimeout: 600_000,
  logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false, waits: false },
};

/** Lifecycle states (autoconsent's lib/types.ts) in which a frame has found a banner and is dismissing it… */
const DISMISSING: ReadonlySet<string> = new Set(['openPopupDetected', 'runningOptOut', 'runningOptIn']);
/** …and those before its first look for a tool (it begins once the frame's document is parsed and its rules are in). */
const BEFORE_LOOKING: ReadonlySet<string> = new Set(['loading', 'waitingForInitResponse', 'initialized']);

interface ConsentScript {
  /** The source each frame runs at document start, in WORLD. */
  readonly source: string;
  /** autoconsent's named snippets, as expressions for the page's own world. */
  readonly snippets: ReadonlyMap<string, string>;
  /** The answer to a frame's `init`: the configuration and the rules for its address, as a JSON string. */
  initAnswer(url: string, mainFrame: boolean): string;
}

const packageFile = (path: string): string => createRequire(import.meta.url).resolve(`@duckduckgo/autoconsent/${path}`);

/**
 * The part of a frame's address its rules are chosen by: the rules' address patterns are anchored prefixes, a host and
 * at most a short path (`^https?://(www\\.)?example\\.com/`), so a longer address changes nothing but the work of
 * matching it. The script cuts every address it sends to this, so no message of a frame is dropped for its length.
 */
const MAX_RULE_URL_CHARS = 2048;
/** Answers kept (each ~66 KB for a top frame, ~3 KB for another); past this many, all but the two common ones go. */
const KEPT_ANSWERS = 64;

/**
 * The binding is taken off the world's global into the script's closure. The content-script build (which expects
 * `autoconsentSendMessage` and defines `autoconsentReceiveMessage`) begins by asking for its configuration and rules
 * (`init`, with the frame's address); the script adds whether the frame is the page's top one. The answer holds only
 * the rules that can apply there, chosen by the package's own `filterCompactRules` from its indexed compact set, as
 * its browser extension does: three quarters of the rules name one site. Every frame compiling the whole set (257 KB)
 * cost ~90 ms of each capture's navigation (bench/RESULTS.md).
 */
async function load(): Promise<ConsentScript> {
  const dist = dirname(fileURLToPath(import.meta.resolve('@duckduckgo/autoconsent')));
  const [bundle, compact, { evalSnippets, filterCompactRules }] = await Promise.all([
    readFile(join(dist, 'autoconsent.playwright.js'), 'utf8'),
    readFile(packageFile('rules/compact-rules.json'), 'utf8'),
    import('@duckduckgo/autoconsent'),
  ]);
  const rules = JSON.parse(compact) as Parameters<typeof filterCompactRules>[0];
  const source = `(() => {
  const send = globalThis.${BINDING};
  if (typeof send !== 'function') return;
  delete globalThis.${BINDING};
  const cut = (message) => (typeof message?.url === 'string' ? { ...message, url: message.url.slice(0, ${MAX_RULE_URL_CHARS}) } : message);
  const tagged = (message) => (message?.type === 'init' ? { ...cut(message), mainFrame: globalThis.top === globalThis } : cut(message));
  globalThis.autoconsentSendMessage = (message) => void send(JSON.stringify(tagged(message)));
  // autoconsent begins looking when the frame is next idle, at most 500 ms on: a static page loaded by the time the
  // rules arrive has no next frame to be idle after, and waited the whole 500 ms. It begins at once instead (its
  // own way where there is no requestIdleCallback); this world's globals are its own, the page's are untouched.
  globalThis.requestIdleCallback = undefined;
})();
if (globalThis.autoconsentSendMessage) {
${bundle}
}`;
  const snippets = new Map(Object.entries(evalSnippets as Record<string, () => unknown>).map(([id, snippet]) => [id, `(${snippet.toString()})()`]));
  // The answer depends on the address only through which rules' patterns match it, so answers are kept by that: a
  // frame at a new address costs one test per pattern (~600 anchored prefixes), not a rule set's making.
  // Only the patterns of the rules the package chooses among for such a frame count.
  const patternsIn = ([from, to]: [number, number]) => rules.r.map((rule, at) => (at >= from && at < to && rule[3] ? new RegExp(rule[3]) : undefined));
  const patterns = { top: patternsIn(rules.index.specificRuleRange), other: patternsIn(rules.index.frameRuleRange) };
  const answers = new Map<string, string>();
  const initAnswer = (url: string, mainFrame: boolean): string => {
    const address = url.slice(0, MAX_RULE_URL_CHARS);
    const matched = patterns[mainFrame ? 'top' : 'other'].flatMap((pattern, at) => (pattern?.test(address) ? [at] : []));
    const key = `${mainFrame}:${matched.join(',')}`;
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = JSON.stringify({ type: 'initResp', config: CONFIG, rules: { compact: filterCompactRules(rules, { url: address, mainFrame }) } });
      // The answers without a site's rule (keys ending in ':') are what nearly every frame gets: they stay.
      if (answers.size >= KEPT_ANSWERS) for (const kept of answers.keys()) if (!kept.endsWith(':')) answers.delete(kept);
      answers.set(key, answer);
    }
    return answer;
  };
  // The answers nearly every frame gets (no site's own rule), made now rather than on a page's clock (~15 ms).
  for (const mainFrame of [true, false]) initAnswer('about:blank', mainFrame);
  return { source, snippets, initAnswer };
}

let script: Promise<ConsentScript> | undefined;

/** Read and assembled once per process (app.prepare does it at start-up); a failed read is tried again next time. */
export function consentScript(): Promise<ConsentScript> {
  if (!script) {
    script = load();
    script.catch(() => (script = undefined));
  }
  return script;
}

export interface Consent {
  /** Resolves once no frame is dismissing a banner, or when `budget` ends: the capture goes on either way. */
  settled(budget: Budget): Promise<void>;
  /** Stops answering and listening: autoconsent stays where it is in the page (a prehidden banner stays hidden). */
  stop(): Promise<void>;
}

/** What a frame's autoconsent has said (times are performance.now()). */
interface Instance {
  lifecycle: string;
  /** Looks for a tool begun: a second one begins only after the first found none. */
  attempts: number;
  /** Snippets asked for and not yet answered. */
  evals: number;
  /** When it last said something, or had a snippet answered. */
  heard: number;
  /** When it last found a tool, or had a snippet answer true. */
  found: number;
}

/**
 * Whether a frame's autoconsent may still change the capture soon: dismissing a banner; before or in its first look
 * for a tool (a later look only repeats it for tools that come late); or checking for the banner of a tool it has
 * just found. A snippet that answered true counts as a find: a tool's detection, or its banner's, follows from it.
 * Answers when it stops being so without a word from the frame (Infinity: only a message ends it), 0 when it is not.
 */
function busyUntil(instance: Instance, now: number): number {
  if (DISMISSING.has(instance.lifecycle) || BEFORE_LOOKING.has(instance.lifecycle)) return Infinity;
  const firstLook = instance.attempts <= 1 && instance.lifecycle === 'started';
  const checking = now < instance.found + POPUP_CHECK_MS;
  if ((firstLook || checking) && instance.evals > 0) return Infinity;
  const until = Math.max(firstLook ? instance.heard + LOOK_QUIET_MS : 0, instance.found + POPUP_CHECK_MS);
  return until > now ? until : 0;
}

/** The contexts of one target's frames that matter here: autoconsent's worlds and the frames' own. */
interface Contexts {
  /** autoconsent's world → its frame. */
  readonly worlds: Map<number, string>;
  /** frame → the frame's own (main) world. */
  readonly mains: Map<string, number>;
}

const ignore = (): undefined => undefined;

/** Hands autoconsent in the world `contextId` one message (`answer`, JSON Glance made). */
async function answerFrame(session: CDPSession, contextId: number, answer: string): Promise<void> {
  await session.send('Runtime.evaluate', { expression: `globalThis.autoconsentReceiveMessage?.(${answer})`, contextId });
}

/** Starts autoconsent in `page` and every frame it will have; call before it navigates. */
export async function watchConsent(page: Page): Promise<Consent> {
  const script = await consentScript();
  const session = await glanceSession(page);
  const watch = new ConsentWatch(script, session);
  await watch.attach(session);
  return watch;
}

/** autoconsent's frames of one page as they report, answered, and watched until they are quiet. */
class ConsentWatch implements Consent {
  readonly #script: ConsentScript;
  /** The page's session (session.ts), which the frames' sessions are attached under. */
  readonly #session: CDPSession;
  readonly #instances = new Map<string, Instance>();
  #messages = 0;
  #stopped = false;
  #changed: (() => void) | undefined;

  constructor(script: ConsentScript, session: CDPSession) {
    this.#script = script;
    this.#session = session;
  }

  async #evaluate(session: CDPSession, contexts: Contexts, frame: string, message: ConsentEval): Promise<boolean> {
    const code = this.#script.snippets.get(message.snippetId);
    const main = contexts.mains.get(frame);
    if (code === undefined || main === undefined) return false;
    const run = session.send('Runtime.evaluate', {
      // Nothing of the page's is called on the result (its Promise.prototype.catch could answer a huge string
      // by value): the async function's own try makes it a boolean in every case.
      expression: `(async () => { try { return (await ${code}) ? true : false; } catch { return false; } })()`,
      contextId: main,
      awaitPromise: true,
      returnByValue: true,
      timeout: EVAL_MS,
    });
    const answer = await Budget.cap(run.catch(ignore), EVAL_MS, undefined);
    return answer?.result.type === 'boolean' && answer.result.value === true;
  }

  #instanceOf(key: string): Instance {
    let instance = this.#instances.get(key);
    if (!instance) {
      instance = { lifecycle: 'loading', attempts: 0, evals: 0, heard: 0, found: -Infinity };
      this.#instances.set(key, instance);
    }
    instance.heard = performance.now();
    return instance;
  }

  async #receive(session: CDPSession, contexts: Contexts, event: Protocol.Runtime.BindingCalledEvent): Promise<void> {
    const frame = contexts.worlds.get(event.executionContextId);
    if (this.#stopped || event.name !== BINDING || frame === undefined || ++this.#messages > MAX_MESSAGES) return;
    const message = parseConsentMessage(event.payload);
    if (!message) return;
    if (message.type === 'init') {
      // Not an instance yet: its reports say where it is, and one whose reports never come is not waited for.
      return answerFrame(session, event.executionContextId, this.#script.initAnswer(message.url, message.mainFrame));
    }
    const instance = this.#instanceOf(`${session.id()}:${event.executionContextId}`);
    try {
      if (message.type === 'report') {
        instance.lifecycle = message.lifecycle;
        instance.attempts = message.attempts;
        if (message.lifecycle === 'cmpDetected' && instance.found < 0) instance.found = instance.heard;
      } else if (message.type === 'cmpDetected') {
        instance.found = instance.heard;
      } else {
        // Counted until the answer is in the frame: autoconsent's next step follows from it.
        instance.evals += 1;
        try {
          const result = await this.#evaluate(session, contexts, frame, message);
          await answerFrame(session, event.executionContextId, JSON.stringify({ type: 'evalResp', id: message.id, result }));
          if (result) instance.found = performance.now();
        } finally {
          instance.evals -= 1;
          instance.heard = performance.now();
        }
      }
    } finally {
      this.#changed?.();
    }
  }

  /** Listens to `session`'s frame (and, attached in turn, its child frames) and runs autoconsent in each. */
  async attach(session: CDPSession): Promise<void> {
    const contexts: Contexts = { worlds: new Map(), mains: new Map() };
    const forget = (id: number): void => {
      contexts.worlds.delete(id);
      this.#instances.delete(`${session.id()}:${id}`);
      this.#changed?.();
    };
    session.on('Runtime.executionContextCreated', ({ context }) => {
      const { frameId, isDefault } = (context.auxData ?? {}) as { frameId?: string; isDefault?: boolean };
      if (frameId === undefined) return;
      if (context.name === WORLD) contexts.worlds.set(context.id, frameId);
      else if (isDefault) contexts.mains.set(frameId, context.id);
    });
    session.on('Runtime.executionContextDestroyed', ({ executionContextId }) => forget(executionContextId));
    session.on('Runtime.executionContextsCleared', () => [...contexts.worlds.keys()].forEach(forget));
    session.on('Runtime.bindingCalled', (event) => void this.#receive(session, contexts, event).catch(ignore));
    // puppeteer's CDPSessionEvent.SessionAttached, named as a string: this module loads before puppeteer does.
    session.on('sessionattached', (child) => {
      // The frame waits for every client that asked to hold it: it is let go whether or not its setup worked.
      void this.attach(child)
        .catch(ignore)
        .finally(() => child.send('Runtime.runIfWaitingForDebugger').catch(ignore));
    });
    // Sent in this order, run in this order: the binding exists before the first world that runs the script.
    await Promise.all([
      session.send('Runtime.addBinding', { name: BINDING, executionContextName: WORLD }),
      session.send('Page.enable'),
      session.send('Page.addScriptToEvaluateOnNewDocument', { source: this.#script.source, worldName: WORLD }),
      session.send('Runtime.enable'),
      session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true, filter: [{ type: 'iframe' }] }),
    ]);
  }

  /** Whether any frame is busy (busyUntil), and when the next one stops being so without a word from it. */
  #busy(now: number): { busy: boolean; next: number } {
    let next = Infinity;
    let any = false;
    for (const instance of this.#instances.values()) {
      const until = busyUntil(instance, now);
      if (until === 0) continue;
      any = true;
      next = Math.min(next, until);
    }
    return { busy: any, next };
  }

  async settled(budget: Budget): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const quiet = new Promise<void>((resolve) => {
      const check = (): void => {
        clearTimeout(timer);
        const now = performance.now();
        const state = this.#busy(now);
        if (!state.busy) resolve();
        else if (state.next !== Infinity) timer = setTimeout(check, state.next - now);
      };
      this.#changed = check;
      check();
    });
    try {
      await budget.race(quiet, ignore);
    } finally {
      clearTimeout(timer);
      this.#changed = undefined;
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#changed = undefined;
    // The session is the page's (session.ts) and stays attached: frames opened from now on are not held for
    // autoconsent, and the page's events stop coming to it. Their autoconsent gets no rules, so it does nothing
    // (the capture follows at once; the adblocker's own hiding rules still apply to them).
    await Promise.all([
      this.#session.send('Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: true }).catch(ignore),
      this.#session.send('Runtime.disable').catch(ignore),
    ]);
  }
}
