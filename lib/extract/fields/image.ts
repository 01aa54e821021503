import { microdataValues, type ImageFact } from '../facts.ts';
import { kindOfUrl } from '../../media/types.ts';
import type { FieldSpec, Rule } from '../rules.ts';
import { isMainNode, ldUrl, link, meta } from '../sources.ts';

/** Page chrome rather than content: logos, icons, sprites, tracking pixels, spacers, vector art. */
const CHROME = new RegExp(
  '(?:^|[/_.\\-@])(?:logos?|icons?|sprites?|pixel|spacer|blank|badge|avatar|emoji|toolbar|loader|loading|placeholder)' +
    '(?:[/_.\\-@\\d]|$)|\\.svg(?:[?#]|$)',
  'i',
);
const MIN_SIDE = 50;

function isContent(image: ImageFact): boolean {
  if (image.width < MIN_SIDE || image.height < MIN_SIDE) return false;
  return !CHROME.test(image.src);
}

/** `<img>` candidates, last resorts for pages that declare no preview image. */
const images =
  (keep: (image: ImageFact) => boolean): Rule =>
  ({ facts }) =>
    facts.images.filter((image) => keep(image) && isContent(image)).map((image) => image.src);

export const image: FieldSpec = {
  rules: [
    meta('og:image:secure_url', 'og:image:url', 'og:image'),
    meta('twitter:image:src', 'twitter:image'),
    meta('image', 'thumbnail', 'thumbnailurl'),
    ldUrl('image', { filter: isMainNode }),
    ldUrl('thumbnailUrl', { filter: isMainNode }),
    link('image_src'),
    ({ facts }) => microdataValues(facts, 'image'),
    ldUrl('image'),
    ({ facts }) => facts.posters,
    images((image) => image.inArticle),
    images((image) => image.inContent),
    images((image) => /author/i.test(image.alt)),
    images((image) => !image.ariaHidden),
  ],
  accept(raw, ctx) {
    const url = ctx.resolve(raw);
    return url && kindOfUrl(url) === undefined ? url : undefined;
  },
};
