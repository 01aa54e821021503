/**
 * The browser's requests (lib/browser/request.ts), made from the query's options: the page setup the device and page
 * settings give, how the page is loaded, and only the captures the answer shows. The browser reads no option itself;
 * the page setup of a request that leaves every option at its default (`usualPageSetup`, which each spare page is
 * primed with) is made by the same function from the options' defaults.
 */
import { resolveDevice } from '../browser/devices.ts';
import { framedViewport } from '../browser/overlay/frame.ts';
import type { PageSetup } from '../browser/page.ts';
import type { Captures, PageLoad, RenderRequest } from '../browser/request.ts';
import type { Outbound } from '../guard/outbound.ts';
import type { VettedUrl } from '../guard/policy.ts';
import { DEFAULTS, type Options } from '../query/options.ts';
import type { Budget } from '../time/budget.ts';

/** The options a page's setup is made of. */
type PageSettings = Pick<Options, 'device' | 'viewport' | 'colorScheme' | 'mediaType' | 'javascript' | 'animations' | 'headers' | 'screenshot'>;

const DEFAULT_SETTINGS: PageSettings = {
  device: DEFAULTS.device,
  viewport: {},
  colorScheme: DEFAULTS.colorScheme,
  mediaType: DEFAULTS.mediaType,
  javascript: DEFAULTS.javascript,
  animations: DEFAULTS.animations,
  headers: {},
  screenshot: false,
};

/**
 * The device's emulation with the caller's viewport over it (a framed screenshot's scale lowered to fit: capture.ts),
 * the page settings, and the target's origin, the only one the caller's credentials go to (lib/browser/intercept.ts).
 * `userAgent`: the configured one, for a device that has none of its own (the desktop presets).
 */
export async function pageSetup(settings: PageSettings, userAgent: string, origin?: string): Promise<PageSetup> {
  const resolved = await resolveDevice(settings.device, settings.viewport);
  const overlay = settings.screenshot ? settings.screenshot.overlay : undefined;
  return {
    viewport: overlay ? framedViewport(resolved.viewport, overlay) : resolved.viewport,
    userAgent: resolved.userAgent ?? userAgent,
    colorScheme: settings.colorScheme,
    mediaType: settings.mediaType,
    javascript: settings.javascript,
    reducedMotion: !settings.animations,
    headers: settings.headers,
    origin,
  };
}

/** The page setup of a request with every option at its default, for no target in particular. */
export const usualPageSetup = (userAgent: string): Promise<PageSetup> => pageSetup(DEFAULT_SETTINGS, userAgent);

/** What the answer shows of a render: its captures (each with its options when the answer shows it). */
export interface RenderWants {
  readonly html: boolean;
  readonly evaluate: readonly string[];
  readonly screenshot: boolean;
  readonly pdf: boolean;
}

function captures(options: Options, wants: RenderWants): Captures {
  return {
    ...(wants.html ? { html: true as const } : {}),
    ...(wants.evaluate.length > 0 ? { evaluate: wants.evaluate } : {}),
    ...(wants.screenshot && options.screenshot ? { screenshot: options.screenshot } : {}),
    ...(wants.pdf && options.pdf ? { pdf: options.pdf } : {}),
  };
}

function pageLoad(options: Options): PageLoad {
  const { waitUntil, adblock, animations, styles, scripts, waitForSelector, click, scroll, waitForTimeout } = options;
  return { waitUntil, adblock, stopAnimations: !animations, actions: { styles, scripts, waitForSelector, click, scroll, waitForTimeout } };
}

export interface RenderRequestInput {
  readonly url: VettedUrl;
  readonly options: Options;
  readonly wants: RenderWants;
  /** The configured user agent (Config.userAgent). */
  readonly userAgent: string;
  readonly budget: Budget;
  readonly outbound?: Outbound | undefined;
}

export async function renderRequest({ url, options, wants, userAgent, budget, outbound }: RenderRequestInput): Promise<RenderRequest> {
  const setup = await pageSetup(options, userAgent, url.origin);
  return { url, setup, load: pageLoad(options), capture: captures(options, wants), budget, outbound };
}
