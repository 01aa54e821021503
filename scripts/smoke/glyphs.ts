/**
 * A page with two characters of each of the world's top scripts (and two colour emoji), each alone in a 100×100
 * cell, and the check that a screenshot of it (1× device scale) shows real glyphs: every cell has ink, the two
 * cells of a script differ (missing glyphs all draw the same box, or nothing), and emoji are in colour.
 */
import type { PNG } from 'pngjs';

interface Script {
  readonly name: string;
  readonly lang: string;
  readonly chars: readonly [string, string];
  readonly colour?: boolean;
}

export const SCRIPTS: readonly Script[] = [
  { name: 'Chinese', lang: 'zh-CN', chars: ['中', '国'] },
  { name: 'Japanese', lang: 'ja', chars: ['あ', 'カ'] },
  { name: 'Korean', lang: 'ko', chars: ['한', '글'] },
  { name: 'Arabic', lang: 'ar', chars: ['ع', 'ب'] },
  { name: 'Hebrew', lang: 'he', chars: ['א', 'ש'] },
  { name: 'Devanagari', lang: 'hi', chars: ['क', 'ह'] },
  { name: 'Thai', lang: 'th', chars: ['ก', 'ข'] },
  { name: 'emoji', lang: 'en', chars: ['😀', '🚀'], colour: true },
];

const CELL = 100;

/** One row per script, two cells per row; the query to capture it is SCRIPTS_QUERY. */
export const SCRIPTS_PAGE = `<!doctype html><meta charset="utf-8"><title>Scripts</title>
<style>body{margin:0;background:#fff;color:#000}div{display:flex}
span{width:${CELL}px;height:${CELL}px;font:64px/${CELL}px sans-serif;text-align:center;overflow:hidden}</style>
${SCRIPTS.map(({ lang, chars }) => `<div lang="${lang}">${chars.map((char) => `<span>${char}</span>`).join('')}</div>`).join('\n')}`;

/** Screenshot options that make one CSS pixel one image pixel over the whole grid. */
export const SCRIPTS_QUERY = `screenshot&meta=false&viewport.width=${2 * CELL}&viewport.height=${SCRIPTS.length * CELL}&viewport.deviceScaleFactor=1`;

/** Dark pixels of a cell as a bit string, and how many are coloured (not grey). */
function cell(image: PNG, row: number, column: number): { ink: string; inked: number; coloured: number } {
  let ink = '';
  let inked = 0;
  let coloured = 0;
  for (let y = row * CELL; y < (row + 1) * CELL; y++) {
    for (let x = column * CELL; x < (column + 1) * CELL; x++) {
      const at = (image.width * y + x) * 4;
      const [r, g, b] = [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
      const dark = Math.min(r, g, b) < 160;
      ink += dark ? '1' : '0';
      if (dark) inked += 1;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 80) coloured += 1;
    }
  }
  return { ink, inked, coloured };
}

const differing = (a: string, b: string): number => [...a].filter((bit, index) => bit !== b[index]).length;

/** What is wrong with the capture, one line per script that failed; empty when every script drew. */
export function scriptFailures(image: PNG): string[] {
  if (image.width < 2 * CELL || image.height < SCRIPTS.length * CELL) return [`the capture is ${image.width}×${image.height}`];
  return SCRIPTS.flatMap((script, row) => {
    const [first, second] = [cell(image, row, 0), cell(image, row, 1)];
    const problems: string[] = [];
    if (first.inked < 40 || second.inked < 40) problems.push(`blank (${first.inked} and ${second.inked} dark pixels)`);
    else if (differing(first.ink, second.ink) < 100) problems.push(`its two characters draw the same shape (missing-glyph boxes)`);
    if (script.colour && (first.coloured < 200 || second.coloured < 200)) problems.push(`not in colour (${first.coloured} and ${second.coloured} coloured pixels)`);
    return problems.map((problem) => `${script.name} ${script.chars.join('')}: ${problem}`);
  });
}
