/**
 * The filter lists the adblock engine is built from, all read from disk, none downloaded at run time:
 *  - ads and trackers: AdGuard's Base filter (EasyList + AdGuard English) and Tracking Protection filter, as
 *    packaged by AdGuard in @adguard/dnr-rulesets (GPL-3.0; EasyList itself is GPL-3.0 / CC BY-SA 3.0), both
 *    usable commercially. The package ships each list's original text inside its declarative ruleset
 *    (`rawFilterList`, in the first rule's metadata), which is what is read here;
 *  - consent banners: the site-independent banner selectors of DuckDuckGo's autoconsent rules (MPL-2.0);
 *  - the deployer's own lists (GLANCE_ADBLOCK_LISTS), in Adblock Plus syntax, e.g. EasyList itself.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A rule of a host-anchored pattern (`||host…`) or an exception to one. */
const anchored = (rule: string): boolean => rule.startsWith('||') || rule.startsWith('@@||');

/**
 * AdGuard filter ids (ruleset_<id>/ruleset_<id>.json is the path the package documents) and which of their
 * rules are kept. Base: all of it (ads, network and element hiding). Tracking Protection: its host-anchored rules
 * only (the tracker domains, ~90 000); its other ~75 000 are path and substring patterns for first-party
 * collectors, which change nothing visible and would double the engine's build time and memory (bench/adblock).
 */
export const PACKAGED_FILTERS: readonly { name: string; id: number; keep: (rule: string) => boolean }[] = [
  { name: 'AdGuard Base filter', id: 2, keep: () => true },
  { name: 'AdGuard Tracking Protection filter', id: 3, keep: anchored },
];

/** The package's declared entry (dist/lib/index.js) locates its folder: its exports open no other path. */
function rulesetPath(id: number): string {
  const entry = fileURLToPath(import.meta.resolve('@adguard/dnr-rulesets'));
  return join(dirname(entry), '..', 'filters', 'declarative', `ruleset_${id}`, `ruleset_${id}.json`);
}

const RAW_KEY = '"rawFilterList":"';

/**
 * The original text of a declarative ruleset's filter list. Only that one JSON string is parsed: the file is
 * mostly its conversion (tens of MB), and parsing all of it would cost seconds.
 */
export function rawFilterList(json: string): string {
  const start = json.indexOf(RAW_KEY);
  if (start === -1) throw new Error('no rawFilterList in the ruleset');
  let end = start + RAW_KEY.length;
  for (; end < json.length; end++) {
    const code = json.charCodeAt(end);
    if (code === 0x5c) end++; // a backslash escapes the next character
    else if (code === 0x22) break;
  }
  return JSON.parse(json.slice(start + RAW_KEY.length - 1, end + 1)) as string;
}

export async function packagedList(id: number): Promise<string> {
  return rawFilterList(await readFile(rulesetPath(id), 'utf8'));
}

/**
 * AdGuard-only syntax the engine does not run (scriptlets `#%#`, CSS injection `#$#`, extended CSS `#?#`, HTML
 * filtering `$$`, each with its exception form), and network modifiers that rewrite rather than block (parameter
 * removal, redirects, CSP and header edits, cookie rules): parsing them would cost time for nothing.
 */
const ADGUARD_ONLY = /#@?[%$?]+#|\$@?\$/;
const REWRITING = /\$(?:.*[,$])?~?(?:removeparam|replace|csp|redirect|redirect-rule|cookie|hls|jsonprune|xmlprune|urltransform|permissions|header|removeheader|stealth|content|jsinject|extension|referrerpolicy)\b/;

/** The rules of a list worth giving the engine: no comments, no blank lines, nothing it would drop anyway. */
export function usableRules(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('!') && !line.startsWith('[') && !ADGUARD_ONLY.test(line) && !REWRITING.test(line));
}

interface ConsentRule {
  prehideSelectors?: string[];
  runContext?: { urlPattern?: string };
}

/** Generic hiding rules from the consent-banner selectors of rules that apply to any site. */
export function bannerRules(rules: { autoconsent: ConsentRule[] }): string[] {
  const selectors = new Set(
    rules.autoconsent.filter((rule) => !rule.runContext?.urlPattern).flatMap((rule) => rule.prehideSelectors ?? []),
  );
  // `##` with no domain: generic. A selector list stays one rule per selector so one bad selector costs only itself.
  return [...selectors].flatMap((list) => list.split(/,(?![^(]*\))/)).map((selector) => `##${selector.trim()}`);
}

async function consentRules(): Promise<string[]> {
  const path = createRequire(import.meta.url).resolve('@duckduckgo/autoconsent/rules/rules.json');
  return bannerRules(JSON.parse(await readFile(path, 'utf8')) as { autoconsent: ConsentRule[] });
}

/** Every rule the engine is built from: the packaged lists, the banner selectors, then the deployer's lists. */
export async function allRules(deployerLists: readonly string[]): Promise<string[]> {
  const [packaged, deployers, consent] = await Promise.all([
    Promise.all(PACKAGED_FILTERS.map(async ({ id, keep }) => usableRules(await packagedList(id)).filter(keep))),
    Promise.all(deployerLists.map(async (path) => usableRules(await readFile(path, 'utf8')))),
    consentRules(),
  ]);
  return [...packaged.flat(), ...consent, ...deployers.flat()];
}
