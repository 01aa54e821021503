/**
 * The fields of the response's `data` (docs/CONTRACT.md §3): what `meta` may ask for, what extraction fills, and
 * which of them are media that `ping` probes. The query, the extractor, the pipeline and ping all speak these.
 */
import type { MediaObject } from '../media/object.ts';
import type { Iframe } from '../oembed/embed.ts';

/** What `meta: true` extracts. */
export const DEFAULT_META_FIELDS = ['title', 'description', 'lang', 'author', 'publisher', 'date', 'url', 'image', 'logo'] as const;

/** Every metadata field, in response order: the default ones plus the media ones the `audio` / `video` flags add. */
export const META_FIELDS = [...DEFAULT_META_FIELDS, 'audio', 'video'] as const;
export type MetaField = (typeof META_FIELDS)[number];

/** The fields whose value is a media object, and which `ping` probes. */
export const MEDIA_FIELDS = ['image', 'logo', 'audio', 'video'] as const satisfies readonly MetaField[];
export type MediaField = (typeof MEDIA_FIELDS)[number];

export const isMetaField = (name: string): name is MetaField => (META_FIELDS as readonly string[]).includes(name);
export const isMediaField = (name: string): name is MediaField => (MEDIA_FIELDS as readonly string[]).includes(name);

/**
 * The response's `data` (docs/CONTRACT.md §3): the metadata fields asked for (present, null when the page has
 * none), the stored captures, `iframe`, `insights`, and any custom `data` rule's field by its own name. A rule may
 * name a default field and replace it (lib/pipeline/steps/rules.ts), so a field's value is typed by what the
 * service puts there and custom fields are any JSON value.
 */
export interface Data {
  title?: string | null;
  description?: string | null;
  lang?: string | null;
  author?: string | null;
  publisher?: string | null;
  /** ISO 8601. */
  date?: string | null;
  url?: string | null;
  image?: MediaObject | null;
  logo?: MediaObject | null;
  audio?: MediaObject | null;
  video?: MediaObject | null;
  screenshot?: MediaObject;
  pdf?: MediaObject;
  iframe?: Iframe | null;
  insights?: { technologies?: unknown; lighthouse?: unknown };
  [field: string]: unknown;
}
