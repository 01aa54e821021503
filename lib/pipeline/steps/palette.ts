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

type MediaLike = Record<string, unknown> & { url?: unknown };

function bytesFor(ctx: Context, field: (typeof IMAGE_LIKE)[number], media: MediaLike): Buffer | undefined {
  if (field === 'screenshot') return ctx.captures.screenshot?.body;
  return typeof media.url === 'string' ? ctx.bodies.get(media.url) : undefined;
}

export const palette: Step = {
  name: 'palette',
  wants: ({ options, data }) => paletteFields(options).some((field) => isMedia(data[field])),
  async run(ctx) {
    const { paletteOf } = await import('../../palette/index.ts');
    await ctx.timings.measure('palette', () =>
      Promise.all(
        paletteFields(ctx.options).map(async (field) => {
          const media = ctx.data[field];
          if (!isMedia(media)) return;
          const bytes = bytesFor(ctx, field, media);
          const fields = bytes && (await paletteOf(bytes, ctx.budget.remaining() / 1000));
          if (fields) Object.assign(media, fields);
        }),
      ),
    );
  },
};

const isMedia = (value: unknown): value is MediaLike => value !== null && typeof value === 'object';
