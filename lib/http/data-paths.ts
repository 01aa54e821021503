/** Dot paths into response data, as `embed` and `filter` address it (`image.url`, `screenshot.width`). */
type Tree = Record<string, unknown>;

const isTree = (value: unknown): value is Tree => typeof value === 'object' && value !== null && !Array.isArray(value);

export function getPath(data: unknown, path: string): unknown {
  let node = data;
  for (const key of path.split('.')) {
    if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else if (isTree(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** Keeps only the given paths of `data` (absent paths are left out, present nulls kept). */
export function pickPaths(data: Tree, paths: readonly string[]): Tree {
  const out: Tree = {};
  for (const path of paths) {
    const value = getPath(data, path);
    if (value === undefined) continue;
    const keys = path.split('.');
    const last = keys.pop() as string;
    let node = out;
    for (const key of keys) {
      if (!isTree(node[key])) node[key] = {};
      node = node[key] as Tree;
    }
    node[last] = value;
  }
  return out;
}
