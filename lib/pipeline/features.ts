/**
 * The costly features a request asks for, named for usage counts (the Lambda handler turns each into a
 * `feature_<name>` metric). What the answer shows decides it, as it decides the work (wanted.ts).
 */
import type { Options } from '../query/options.ts';
import { wantedOutput } from './wanted.ts';

export const FEATURES = ['screenshot', 'pdf', 'iframe', 'insights', 'palette', 'data', 'embed', 'audio', 'video', 'prerender'] as const;
export type Feature = (typeof FEATURES)[number];

export function featuresOf(options: Options): Feature[] {
  const wanted = wantedOutput(options);
  const used: Record<Feature, boolean> = {
    screenshot: wanted.screenshot,
    pdf: wanted.pdf,
    iframe: wanted.iframe,
    insights: wanted.technologies || wanted.lighthouse !== false,
    palette: options.palette || (options.screenshot !== false && options.screenshot.palette),
    data: wanted.rules !== undefined,
    embed: options.embed !== undefined,
    audio: options.audio,
    video: options.video,
    prerender: options.prerender === true,
  };
  return FEATURES.filter((feature) => used[feature]);
}
