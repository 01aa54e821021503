/**
 * The docs a reader follows: README.md and the manual in docs/. Every relative link names a file of the repository,
 * and every `#anchor` names a heading of the file it points into, by GitHub's rules for heading ids, so a section
 * moved or renamed fails here rather than in a reader's browser.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** A Markdown file's lines outside fenced code blocks, where headings and links are read. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's id for a heading's text: markup dropped, lowercased, punctuation removed, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a file's headings get, a repeated one suffixed `-1`, `-2`… as GitHub does. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The targets of a file's Markdown links and images, outside code blocks and code spans. */
export function linksOf(text: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1] ?? '');
  }
  return targets;
}

/** What is wrong with one link of `file`, or undefined when it resolves. */
function brokenLink(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const [path = '', anchor] = target.split('#', 2);
  const resolved = path === '' ? join(ROOT, file) : resolve(dirname(join(ROOT, file)), decodeURIComponent(path));
  if (!resolved.startsWith(ROOT)) return `${target}: outside the repository`;
  if (!existsSync(resolved)) return `${target}: no file ${relative(ROOT, resolved)}`;
  if (anchor === undefined) return undefined;
  if (!resolved.endsWith('.md')) return `${target}: an anchor into a file that is not Markdown`;
  const anchors = anchorsOf(readFileSync(resolved, 'utf8'));
  return anchors.has(decodeURIComponent(anchor)) ? undefined : `${target}: no heading #${anchor} in ${relative(ROOT, resolved)}`;
}

describe('the docs’ links', () => {
  test('GitHub’s heading ids: markup and punctuation dropped, spaces to hyphens, repeats numbered', () => {
    assert.equal(slug('MCP (AI agents)'), 'mcp-ai-agents');
    assert.equal(slug('`embed` and `iframe`'), 'embed-and-iframe');
    assert.equal(slug('Rule sets shipped, and their licences'), 'rule-sets-shipped-and-their-licences');
    assert.equal(slug('What’s a [spare](x.md)? 2×'), 'whats-a-spare-2');
    assert.equal(slug('snake_case and kebab-case'), 'snake_case-and-kebab-case');
    assert.deepEqual([...anchorsOf('# A\n## A\n```sh\n# A\n```\n### A ##\n')], ['a', 'a-1', 'a-2']);
  });

  test('links are read outside code blocks and code spans', () => {
    assert.deepEqual(linksOf('[a](x.md#y) `[b](no.md)` ![c](img.png "t")\n```\n[d](no.md)\n```\n<https://e>'), ['x.md#y', 'img.png']);
  });

  test('the README and the manual in docs/ exist', () => {
    assert.ok(DOCS.includes('README.md'));
    for (const name of ['parameters', 'errors', 'deployment', 'security', 'architecture', 'benchmarks']) {
      assert.ok(DOCS.includes(`docs/${name}.md`), `docs/${name}.md`);
    }
  });

  for (const file of DOCS) {
    test(`${file}: every relative link names a file, every anchor a heading`, () => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const broken = linksOf(text).map((target) => brokenLink(file, target)).filter((problem) => problem !== undefined);
      assert.deepEqual(broken, []);
    });
  }
});

describe('README.md, the front door', () => {
  test('opens with the quick start: its first section, whose code block, the first of the file, is npm start and npm test', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const sections = [...readme.matchAll(/^## .+$/gm)];
    assert.equal(sections[0]?.[0], '## Quick start');
    const block = /^```\w*\n([\s\S]*?)^```/m.exec(readme);
    const inQuickStart = block !== null && block.index > (sections[0]?.index ?? 0) && block.index < (sections[1]?.index ?? Infinity);
    assert.ok(inQuickStart, 'the first code block is the quick start\'s');
    const commands = (block?.[1] ?? '').split('\n').map((line) => line.replace(/#.*$/, '').trim()).filter((line) => line !== '');
    assert.deepEqual(commands, ['npm start', 'npm test']);
  });
});

const ARCHITECTURE = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
/** The code the tree describes, file by file: what `git ls-files` would list, without the data beside it. */
const CODE = /\.(ts|cts|mts|sh)$/;
const ROOTS = ['functions', 'lib', 'stacks', 'scripts'];

/** The tree's entries (docs/architecture.md's first code block): each path it names, with the words written beside it. */
function treeEntries(): Map<string, Set<string>> {
  const block = ARCHITECTURE.split('```')[1] ?? '';
  const entries = new Map<string, Set<string>>();
  const parents: string[] = [];
  let current: string[] = [];
  for (const line of block.split('\n').slice(1)) {
    const name = line.slice(0, 24);
    if (name.trim() !== '') {
      const depth = (name.length - name.trimStart().length) / 2;
      parents.length = depth;
      current = name.trim().split(/,\s*/).map((part) => [...parents, part].join('').replace(/\/$/, ''));
      const folder = name.trim().split(/,\s*/).find((part) => part.endsWith('/'));
      parents.push(folder ?? `${name.trim()}/`);
    }
    for (const path of current) {
      const words = entries.get(path) ?? new Set<string>();
      // Paths (lib/browser/lighthouse.ts) and the names in them (sources/rules/jsonld: sources, rules, jsonld).
      for (const word of [...(line.match(/[\w./-]+/g) ?? []), ...(line.match(/[\w.-]+/g) ?? [])]) words.add(word.replace(/\.$/, ''));
      entries.set(path, words);
    }
  }
  return entries;
}

function codeFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? codeFiles(`${dir}/${entry.name}`) : CODE.test(entry.name) ? [`${dir}/${entry.name}`] : [],
  );
}

describe('docs/architecture.md', () => {
  test('the tree names every file of functions/, lib/, stacks/ and scripts/ under the entry of its folder', () => {
    const entries = treeEntries();
    const unnamed = ROOTS.flatMap(codeFiles).filter((file) => {
      const owner = [...entries.keys()].filter((path) => file === path || file.startsWith(`${path}/`)).sort((a, b) => b.length - a.length)[0];
      const base = file.slice(file.lastIndexOf('/') + 1);
      const words = owner === undefined ? new Set<string>() : entries.get(owner)!;
      return !words.has(base) && !words.has(base.replace(/(\.d)?\.[a-z]+$/, ''));
    });
    assert.deepEqual(unnamed, []);
  });

  test('every file the tree names is there', () => {
    const missing: string[] = [];
    for (const [path, words] of treeEntries()) {
      for (const word of words) {
        if (!CODE.test(word) || existsSync(join(ROOT, word))) continue;
        const dirs = [CODE.test(path) ? dirname(path) : path, dirname(path)].filter((dir) => ROOTS.some((root) => dir === root || dir.startsWith(`${root}/`)));
        const under = dirs.flatMap(codeFiles);
        if (!under.some((file) => file.endsWith(`/${word}`))) missing.push(`${path}: ${word}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  test('the lifecycle table lists STEPS in order, with the parts each declares it reads and writes', async () => {
    const { STEPS } = await import('../lib/pipeline/index.ts');
    const section = ARCHITECTURE.split("## A request's lifecycle")[1]?.split('\n## ')[0] ?? '';
    const cells = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '').sort();
    const rows = section.split('\n').filter((line) => /^\| `[a-z-]+` \|/.test(line)).map((line) => line.split('|').map((cell) => cell.trim()));
    assert.deepEqual(
      rows.map((row) => ({ name: cells(row[1] ?? '')[0], reads: cells(row[3] ?? ''), writes: cells(row[4] ?? '') })),
      STEPS.map((step) => ({ name: step.name, reads: [...step.reads].sort(), writes: [...step.writes].sort() })),
    );
  });
});
