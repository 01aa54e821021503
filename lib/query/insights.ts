/**
 * `insights` (https://microlink.io/docs/api/parameters/insights): the technologies and a Lighthouse report, each on
 * unless turned off (`insights.technologies=false`, `insights.lighthouse=false`), as on Microlink.
 *
 * `insights.lighthouse` takes Lighthouse's own settings by their names (its `SharedFlagsSettings`, `Flags` and
 * configuration keys): those Glance passes through are checked here (SETTINGS), those it keeps to itself are refused
 * by name with the reason (REFUSED), and any other key is not Lighthouse's.
 */
import { GlanceError, invalidParam } from '../errors.ts';
import { LIGHTHOUSE_AUDITS, LIGHTHOUSE_LOCALES } from './lighthouse-names.ts';
import {
  LIGHTHOUSE_CATEGORIES,
  LIGHTHOUSE_OUTPUTS,
  LIGHTHOUSE_PRESETS,
  LIGHTHOUSE_THROTTLING,
  TIMEOUT,
  type InsightsOptions,
  type LighthouseOptions,
  type LighthouseSettings,
} from './options.ts';
import { child, feature, flag, flagOf, list, numberIn, oneOf, onlyKeys, text, type Found } from './read.ts';
import type { QueryNode } from './tree.ts';

const INSIGHTS = ['technologies', 'lighthouse'];
const NAME = 'insights.lighthouse';

/** `insights=true` is both, as on Microlink: a report then costs seconds of its budget (docs/parameters.md, "insights"). */
export function readInsights(root: QueryNode): false | InsightsOptions {
  const node = feature(child(root, 'insights'), false);
  if (node === false) return false;
  onlyKeys({ node, name: 'insights' }, INSIGHTS);
  const technologies = flagOf(node, 'technologies', true, 'insights');
  const lighthouse = readLighthouse(child(node, 'lighthouse', 'insights'));
  return technologies || lighthouse ? { technologies, lighthouse } : false;
}

/** Lighthouse's quiet windows under real throttling (its `nonSimulatedSettingsOverrides`): longer only delays. */
const QUIET_MAX_MS = 5250;
const MAX_PATTERNS = 50;
const MAX_PATTERN_LENGTH = 500;

type Readers = { readonly [K in keyof LighthouseSettings]-?: (found: Found) => NonNullable<LighthouseSettings[K]> };

const audits = (found: Found): string[] => names(found, LIGHTHOUSE_AUDITS, 'a list of Lighthouse audit ids, such as document-title, largest-contentful-paint');
const wait = (found: Found): number => numberIn(found, 1, TIMEOUT.max, true);
const quiet = (found: Found): number => numberIn(found, 0, QUIET_MAX_MS, true);

const SETTINGS: Readers = {
  onlyCategories: (found) => names(found, LIGHTHOUSE_CATEGORIES, `a list of ${LIGHTHOUSE_CATEGORIES.join(', ')}`),
  onlyAudits: audits,
  skipAudits: audits,
  locale,
  throttlingMethod: (found) => oneOf(found, LIGHTHOUSE_THROTTLING),
  maxWaitForFcp: wait,
  maxWaitForLoad: wait,
  pauseAfterFcpMs: quiet,
  pauseAfterLoadMs: quiet,
  networkQuietThresholdMs: quiet,
  cpuQuietThresholdMs: quiet,
  blockedUrlPatterns: patterns,
  skipAboutBlank: flag,
  usePassiveGathering: flag,
  ignoreStatusCode: flag,
};

const EMULATION = 'it follows `preset`, or the request\'s `device` and `viewport`';
const CUSTOM_CONFIG = 'a configuration of its own names code and files on the service to load; use `preset`, `onlyCategories`, `onlyAudits` and `skipAudits`';

/** Lighthouse's keys Glance does not take, each with its reason. */
const REFUSED: ReadonlyMap<string, string> = new Map([
  ['port', 'Lighthouse is handed a page Glance opened behind its address guard; it never connects anywhere of its own'],
  ['hostname', 'Lighthouse is handed a page Glance opened behind its address guard; it never connects anywhere of its own'],
  ['blankPage', 'a second address for the audited page to load, besides the request\'s `url`'],
  ['extraHeaders', 'headers for the target are the request\'s `headers`, which the audited page sends already'],
  ['formFactor', EMULATION],
  ['screenEmulation', EMULATION],
  ['emulatedUserAgent', EMULATION],
  ['throttling', 'custom throttling applied for real (`devtools`) can slow a report past any budget; the presets\' throttling stays, and `throttlingMethod` chooses how it is applied'],
  ['disableStorageReset', 'the audited page opens in a fresh, empty browser context, kept as it is'],
  ['clearStorageTypes', 'the audited page opens in a fresh, empty browser context, kept as it is'],
  ['disableFullPageScreenshot', 'the full-page screenshot stays off: it costs about 1.3 s of the budget and most of a long page\'s report'],
  ['additionalTraceCategories', 'more tracing costs memory and CPU of the report\'s worker and adds nothing to the report'],
  ['precomputedLanternData', 'it replaces the report\'s measurements with numbers given by the caller'],
  ['debugNavigation', 'it waits for a person to resume the audit: the report would never finish'],
  ['auditMode', 'it reads Lighthouse\'s artifacts from the service\'s disk'],
  ['gatherMode', 'it writes Lighthouse\'s artifacts to the service\'s disk'],
  ['outputPath', 'it writes the report to the service\'s disk; the report is in the answer'],
  ['logLevel', 'Lighthouse\'s log goes nowhere a caller can read'],
  ['channel', 'it only labels how Lighthouse was run'],
  ['configPath', CUSTOM_CONFIG],
  ['plugins', CUSTOM_CONFIG],
  ['extends', CUSTOM_CONFIG],
  ['settings', CUSTOM_CONFIG],
  ['audits', CUSTOM_CONFIG],
  ['categories', CUSTOM_CONFIG],
  ['groups', CUSTOM_CONFIG],
  ['artifacts', CUSTOM_CONFIG],
]);

function readLighthouse(found: Found | undefined): false | LighthouseOptions {
  const node = feature(found, true);
  if (node === false) return false;
  onlyKeys({ node, name: NAME }, ['output', 'preset', ...Object.keys(SETTINGS)], (key, path) => {
    const why = REFUSED.get(key);
    return why === undefined ? undefined : new GlanceError('EUNSUPPORTED', `\`${path}\` is a Lighthouse setting Glance does not take: ${why}.`, { data: { [path]: 'not offered' } });
  });
  const output = child(node, 'output', NAME);
  const preset = child(node, 'preset', NAME);
  const given = Object.entries(SETTINGS).flatMap(([key, read]) => {
    const setting = child(node, key, NAME);
    return setting ? [[key, read(setting)] as const] : [];
  });
  const settings: LighthouseSettings = Object.fromEntries(given);
  // Lighthouse refuses the run when an audit is in both, after the page has been loaded for it.
  const both = settings.skipAudits?.find((id) => settings.onlyAudits?.includes(id));
  if (both !== undefined) throw invalidParam(`${NAME}.skipAudits`, `audits not in \`${NAME}.onlyAudits\` too (\`${both}\` is in both)`);
  return {
    output: output ? oneOf(output, LIGHTHOUSE_OUTPUTS) : 'json',
    preset: preset ? oneOf(preset, LIGHTHOUSE_PRESETS) : undefined,
    settings,
  };
}

/** Known names, matched without case; each given once. */
function names<T extends string>(found: Found, known: readonly T[], what: string): T[] {
  const matched = list(found, true).map((given) => {
    const match = known.find((name) => name === given.toLowerCase());
    if (match === undefined) throw invalidParam(found.name, `${what} (not \`${given}\`)`);
    return match;
  });
  return [...new Set(matched)];
}

/** Lighthouse's own fallback along the tag (`de-AT` → `de`, as its lookupClosestLocale), to the spelling it knows. */
function locale(found: Found): string {
  const given = text(found);
  let parts: string[] = [];
  try {
    parts = (Intl.getCanonicalLocales(given)[0] ?? '').split('-');
  } catch {
    // Not a language tag: refused below.
  }
  for (; parts.length > 0; parts = parts.slice(0, -1)) {
    const tag = parts.join('-').toLowerCase();
    const match = LIGHTHOUSE_LOCALES.find((known) => known.toLowerCase() === tag);
    if (match !== undefined) return match;
  }
  throw invalidParam(found.name, `a locale Lighthouse has messages for, such as en-US, de, es-419, ja (not \`${given}\`)`);
}

function patterns(found: Found): string[] {
  const items = list(found, true);
  if (items.length > MAX_PATTERNS || items.some((item) => item.length > MAX_PATTERN_LENGTH)) {
    throw invalidParam(found.name, `at most ${MAX_PATTERNS} URL patterns of at most ${MAX_PATTERN_LENGTH} characters`);
  }
  return items;
}

