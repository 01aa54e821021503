/**
 * `screenshot.codeScheme`: the theme a text answer is highlighted with, by the identifiers Microlink documents
 * (https://microlink.io/docs/api/parameters/screenshot/codeScheme): automad-prism-themes' names, then prism-themes'
 * for the themes automad lacks, as Microlink's own resolver orders them (microlinkhq/browserless,
 * packages/screenshot/src/pretty/theme.js), then Prism's own themes, which Glance offered before. A stylesheet URL
 * is refused by name: Glance fetches no theme.
 */
import { GlanceError } from '../errors.ts';
import { oneOf, scalar, type Found } from './read.ts';

/** automad-prism-themes' single themes, `dist/prism-<id>.css`. */
export const AUTOMAD_THEMES = [
  'atom-dark', 'atom-one-dark', 'atom-one-light', 'aura-dark', 'automad-dark', 'automad-light', 'ayu-dark',
  'ayu-light', 'ayu-mirage', 'base', 'bearded-arc-blueberry', 'bearded-vivid-light', 'boola-dark', 'boola-light',
  'catppuccin-frappe', 'catppuccin-latte', 'catppuccin-macchiato', 'catppuccin-mocha', 'coldark-cold',
  'coldark-dark', 'dark-frost', 'dark-space', 'dracula', 'duotone-dark', 'duotone-earth', 'duotone-forest',
  'duotone-light', 'duotone-sea', 'duotone-space', 'github-dark', 'github-light', 'gruvbox-dark', 'gruvbox-light',
  'laserwave', 'night-owl-light', 'night-owl', 'nightfall', 'nord', 'panda', 'poimandres', 'rose-pine-dawn',
  'rose-pine', 'sakura-sun', 'sea-shells-dark', 'serendipity-midnight', 'serendipity-morning', 'serendipity-sunset',
  'shades-of-purple', 'solarized-dark-atom', 'synthwave84', 'tailwind-ice', 'tailwind-moon-blue',
  'tokyo-night-light', 'tokyo-night-storm', 'tokyo-night', 'verdandi-alter', 'verdandi', 'violet-dream',
  'vsc-dark-plus'
] as const;

/**
 * automad-prism-themes' light/dark combos, `dist/prism-<name>.light-dark.css`: by that file's id
 * (`github.light-dark`, as Microlink's resolver names it), and by the name alone (`github`, as Microlink's docs
 * do) where no single theme has that name.
 */
export const AUTOMAD_COMBOS = [
  'atom-one', 'automad', 'ayu', 'ayu-mirage', 'bearded-arc-blueberry', 'boola', 'catppuccin-frappe',
  'catppuccin-macchiato', 'catppuccin-mocha', 'coldark', 'github', 'gruvbox', 'night-owl', 'rose-pine',
  'serendipity-midnight', 'serendipity-sunset', 'tailwind-moon-blue', 'tokyo-night', 'tokyo-night-storm', 'verdandi'
] as const;

/** prism-themes' themes that automad-prism-themes does not ship (`themes/prism-<id>.min.css`). */
export const PRISM_THEMES = [
  'a11y-dark', 'base16-ateliersulphurpool.light', 'cb', 'coy-without-shadows', 'darcula', 'ghcolors', 'holi-theme',
  'hopscotch', 'lucario', 'material-dark', 'material-light', 'material-oceanic', 'one-dark', 'one-light',
  'pojoaque', 'vs', 'xonokai', 'z-touch'
] as const;

/** Prism's own themes (prismjs, `themes/prism-<id>.min.css`; `prism` is `prism.min.css`). */
export const PRISMJS_THEMES = ['prism', 'coy', 'dark', 'funky', 'okaidia', 'solarizedlight', 'tomorrow', 'twilight'] as const;

type Combo = (typeof AUTOMAD_COMBOS)[number];
export type CodeScheme =
  | (typeof AUTOMAD_THEMES)[number]
  | Combo
  | `${Combo}.light-dark`
  | (typeof PRISM_THEMES)[number]
  | (typeof PRISMJS_THEMES)[number];

export const CODE_SCHEMES: readonly CodeScheme[] = [
  ...new Set<CodeScheme>([
    ...AUTOMAD_THEMES,
    ...AUTOMAD_COMBOS,
    ...AUTOMAD_COMBOS.map((name) => `${name}.light-dark` as const),
    ...PRISM_THEMES,
    ...PRISMJS_THEMES,
  ]),
].sort();

export function readCodeScheme(found: Found): CodeScheme {
  if (/^https?:\/\//i.test(scalar(found).trim())) {
    throw new GlanceError(
      'EUNSUPPORTED',
      `The \`${found.name}\` parameter is not offered by Glance for this value: Glance does not fetch a theme stylesheet from a URL; give the name of a theme, such as dracula.`,
      { data: { [found.name]: 'not offered' } },
    );
  }
  return oneOf(found, CODE_SCHEMES);
}
