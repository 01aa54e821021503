/**
 * Microlink parameters Glance does not offer, refused by name rather than accepted and ignored (a caller must
 * never get `200 success` for work that was not done), each with the reason a caller can act on.
 */
import { GlanceError } from '../errors.ts';
import { child } from './read.ts';
import type { QueryNode } from './tree.ts';

const NOT_OFFERED: ReadonlyArray<readonly [path: string, why: string]> = [
  [
    'function',
    'code sent by a caller runs with the browser in hand on Microlink; on a public Glance it would bypass the address guard. Use a `data` rule with `evaluate` (runs in the page only)',
  ],
  ['proxy', 'Glance fetches from its own addresses, under its address rules; a caller-given proxy would route around them'],
  ['retry', 'Glance tries a page once within `timeout` (a browser lost on our side is retried for you); retry on the client'],
  ['modules', 'Glance does not load caller-chosen browser modules; use `scripts` or `styles`'],
  ['screenshot.animated', 'animated captures are not offered; take a `screenshot` or a `pdf`'],
];

export function refuseNotOffered(root: QueryNode): void {
  for (const [path, why] of NOT_OFFERED) {
    const [first = '', second] = path.split('.');
    const parent = child(root, first);
    const found = second === undefined ? parent : parent && child(parent.node, second, first);
    // `screenshot.animated=false` asks for nothing that is missing.
    if (found && found.node.value?.trim().toLowerCase() !== 'false') {
      throw new GlanceError('EUNSUPPORTED', `The \`${path}\` parameter is not offered by Glance: ${why}.`, {
        data: { [path]: 'not offered' },
      });
    }
  }
}
