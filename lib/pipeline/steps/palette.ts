/**
 * `palette`: the image-like media objects (`image`, `logo`, `screenshot`) gain their colours (lib/palette/);
 * `screenshot.palette`: the screenshot alone does. An image's bytes are the ones its ping already read whole
 * (ctx.bodies); the screenshot's are the captured buffer. lib/palette is imported here on first use only, so the
 * metadata-only path never loads a decoder.
 */
import type { Options } from '../../query/options.ts';
import type { Context, Step } from '../context.ts';

const IMAGE_LIKE = ['image', 'logo', 'screenshot'] as const;

const paletteFields = (options: Options): ReadonlyArray<(typeof IMAGE_LIKE)[number]> =>
  options.palette ? IMAGE_LIKE : options.screenshot && options.screenshot.palette ? ['screenshot'] : [];

type ImageLike = (typeof IMAGE_LIKE)[number];
type MediaLike = Record<string, unknown> & { url?: unknown };

function bytesFor(ctx: Context, field: ImageLike, media: MediaLike): Buffer | undefined {
  if (field === 'screenshot') return ctx.captures.screenshot?.body;
  return typeof media.url === 'string' ? ctx.bodies.get(media.url) : undefined;
}

/** The image-like fields that are media objects, each with its object: what gains a palette. */
function paletteMedia({ options, data }: Context): Array<[ImageLike, MediaLike]> | undefined {
  const found = paletteFields(options).flatMap((field): Array<[ImageLike, MediaLike]> => {
    const media = data[field];
    return isMedia(media) ? [[field, media]] : [];
  });
  return found.length > 0 ? found : undefined;
}

/** Reads the screenshot's captured bytes and the images' bytes the ping kept; colours the objects ping and store made. */
export const palette: Step<Array<[ImageLike, MediaLike]>> = {
  name: 'palette',
  reads: ['data.media', 'data.captures', 'captures', 'bodies'],
  writes: ['data.media', 'data.captures'],
  wants: paletteMedia,
  async run(ctx, found) {
    const { paletteOf } = await import('../../palette/index.ts');
    await ctx.timings.measure('palette', () =>
      Promise.all(
        found.map(async ([field, media]) => {
          const bytes = bytesFor(ctx, field, media);
          const fields = bytes && (await paletteOf(bytes, ctx.budget.remaining() / 1000));
          if (fields) Object.assign(media, fields);
        }),
      ),
    );
  },
};

const isMedia = (value: unknown): value is MediaLike => value !== null && typeof value === 'object';
