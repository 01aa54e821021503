/**
 * Data flows one way between the folders of lib/ (docs/architecture.md): no two folders import each other, so each
 * folder can be read, tested and changed knowing only the folders below it. Every import counts: static, dynamic,
 * re-exports and type-only ones (a type shared both ways is a concern split in two). Files at lib/'s root (app.ts,
 * config.ts, errors.ts, the wiring) are no folder and are left out.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const LIB = fileURLToPath(new URL('../lib/', import.meta.url));

/** The relative module names a file imports, in every form TypeScript reads one. */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((name) => name.startsWith('.'));
}

/** `folder → folder` edges of the files under `root`, each with one import that makes it, for the message. */
function folderEdges(root: string): Map<string, string> {
  const folderOf = (path: string): string | undefined => {
    const parts = relative(root, path).split(sep);
    return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
  };
  const edges = new Map<string, string>();
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => /\.[cm]?ts$/.test(name));
  for (const name of files) {
    const file = join(root, name);
    const from = folderOf(file);
    for (const imported of importsOf(file)) {
      const to = folderOf(resolve(dirname(file), imported));
      if (from && to && from !== to && !edges.has(`${from} → ${to}`)) edges.set(`${from} → ${to}`, `${name} imports ${imported}`);
    }
  }
  return edges;
}

/** Pairs of folders that import each other, with an import each way. */
function twoWayPairs(edges: Map<string, string>): string[] {
  const pairs: string[] = [];
  for (const [edge, example] of edges) {
    const [from, to] = edge.split(' → ') as [string, string];
    const back = edges.get(`${to} → ${from}`);
    if (back && from < to) pairs.push(`${from} ↔ ${to}: ${example}; ${back}`);
  }
  return pairs;
}

describe("lib/'s folders import one way", () => {
  test('no two folders of lib/ import each other', () => {
    const edges = folderEdges(LIB);
    assert.ok(edges.has('pipeline → fetch') && edges.has('fetch → guard'), 'the scan sees the imports it must');
    assert.deepEqual(twoWayPairs(edges), []);
  });

  test('a pair is found whichever form its imports take: type-only, dynamic, a type of an import()', () => {
    const root = mkdtempSync(join(tmpdir(), 'glance-folders-'));
    const write = (name: string, text: string) => {
      mkdirSync(dirname(join(root, name)), { recursive: true });
      writeFileSync(join(root, name), text);
    };
    write('a/x.ts', "import type { Y } from '../b/y.ts';\nexport type X = Y;\n");
    write('b/y.ts', "export type Y = number;\nexport const later = () => import('../c/z.ts');\n");
    write('c/z.ts', "export type Z = import('../b/y.ts').Y;\n");
    write('d/w.ts', "export { later } from '../b/y.ts';\n");
    write('root.ts', "import { later } from './b/y.ts';\nexport { later };\n");
    try {
      const edges = folderEdges(root);
      assert.deepEqual([...edges.keys()].sort(), ['a → b', 'b → c', 'c → b', 'd → b']);
      assert.deepEqual(twoWayPairs(edges), ["b ↔ c: b/y.ts imports ../c/z.ts; c/z.ts imports ../b/y.ts"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
