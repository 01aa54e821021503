import type { MetaField } from '../../data/fields.ts';
import type { FieldSpec } from '../rules.ts';
import { audio } from './audio.ts';
import { author } from './author.ts';
import { date } from './date.ts';
import { description } from './description.ts';
import { image } from './image.ts';
import { lang } from './lang.ts';
import { logo } from './logo.ts';
import { publisher } from './publisher.ts';
import { title } from './title.ts';
import { url } from './url.ts';
import { video } from './video.ts';

export const FIELD_SPECS: Readonly<Record<MetaField, FieldSpec>> = {
  title, description, lang, author, publisher, date, url, image, logo, audio, video,
};
