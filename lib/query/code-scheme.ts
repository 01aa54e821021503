/**
 * `screenshot.codeScheme`: a bundled theme (CODE_SCHEMES, prism-themes and Prism's own), or one of the identifiers
 * Microlink documents (https://microlink.io/docs/api/parameters/screenshot/codeScheme, automad-prism-themes'
 * names). Most of those are prism-themes' own names; a few are the same theme under another name, and a combo
 * theme (`gruvbox`) draws its light variant, as Microlink's does on a page without a dark class. Documented
 * identifiers with no bundled theme are refused by name: drawing another theme instead would be a silent swap.
 */
import { GlanceError } from '../errors.ts';
import { CODE_SCHEMES, type CodeScheme } from './options.ts';
import { oneOf, scalar, type Found } from './read.ts';

/** Microlink's identifiers that name a bundled theme differently. */
export const CODE_SCHEME_ALIASES: Readonly<Record<string, CodeScheme>> = {
  // prism-themes' one-dark / one-light are ports of Atom's One themes.
  'atom-one-dark': 'one-dark',
  'atom-one-light': 'one-light',
  'atom-one': 'one-light',
  coldark: 'coldark-cold',
  gruvbox: 'gruvbox-light',
  // prism-themes' GitHub theme, GitHub's light syntax colours.
  github: 'ghcolors',
  'github-light': 'ghcolors',
};

/** Microlink's identifiers (automad-prism-themes, singles and combos) that no bundled theme draws. */
export const CODE_SCHEMES_NOT_BUNDLED: readonly string[] = [
  'aura-dark', 'automad', 'automad-dark', 'automad-light', 'ayu', 'ayu-dark', 'ayu-light', 'ayu-mirage',
  'bearded-arc-blueberry', 'bearded-vivid-light', 'boola', 'boola-dark', 'boola-light', 'catppuccin-frappe',
  'catppuccin-latte', 'catppuccin-macchiato', 'catppuccin-mocha', 'dark-frost', 'dark-space', 'github-dark',
  'laserwave', 'night-owl-light', 'nightfall', 'panda', 'poimandres', 'rose-pine', 'rose-pine-dawn', 'sakura-sun',
  'sea-shells-dark', 'serendipity-midnight', 'serendipity-morning', 'serendipity-sunset', 'tailwind-ice',
  'tailwind-moon-blue', 'tokyo-night', 'tokyo-night-light', 'tokyo-night-storm', 'verdandi', 'verdandi-alter',
  'violet-dream',
];

const unsupported = (found: Found, why: string): GlanceError =>
  new GlanceError('EUNSUPPORTED', `The \`${found.name}\` parameter is not offered by Glance for this value: ${why}.`, {
    data: { [found.name]: 'not offered' },
  });

export function readCodeScheme(found: Found): CodeScheme {
  const given = scalar(found).trim().toLowerCase();
  if (/^https?:\/\//.test(given)) {
    throw unsupported(found, 'Glance does not fetch a theme stylesheet from a URL; give the name of a bundled theme, such as dracula');
  }
  if (CODE_SCHEMES_NOT_BUNDLED.includes(given)) {
    throw unsupported(found, `the theme \`${given}\` is not bundled with Glance; the bundled themes are ${CODE_SCHEMES.join(', ')}`);
  }
  return oneOf(found, CODE_SCHEMES, CODE_SCHEME_ALIASES);
}
