/**
 * Every function in lib/browser/ fits a screen (issue 28): read with the TypeScript compiler's own parser, so a
 * function is what the language says it is (declarations, methods, accessors, arrows, function expressions), and its
 * length counts its nested functions too: a closure of 200 lines is one long function however it is cut inside.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const MAX_LINES = 80;
const ROOT = new URL('../../lib/browser/', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `file:line name (n lines)` for each function of `path` longer than `max` lines. */
export function longFunctions(path: string, text: string, max: number): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      const name = node.name?.getText(file) ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(file) : '(anonymous)');
      if (lines > max) found.push(`${relative(ROOT, path)}:${first + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

test('the check finds a long function, nested or not, and passes a short one', () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
  assert.deepEqual(longFunctions(join(ROOT, 'x.ts'), `function short() {\n${body(3)}\n}`, 10), []);
  assert.deepEqual(longFunctions(join(ROOT, 'x.ts'), `export function outer() {\n  const inner = () => {\n${body(12)}\n  };\n}`, 10), [
    'x.ts:1 outer (16 lines)',
    'x.ts:2 inner (14 lines)',
  ]);
});

test(`no function in lib/browser/ is longer than ${MAX_LINES} lines`, () => {
  const long = sources(ROOT).flatMap((path) => longFunctions(path, readFileSync(path, 'utf8'), MAX_LINES));
  assert.deepEqual(long, []);
});
