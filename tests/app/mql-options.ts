/**
 * Every option a caller can give through @microlink/mql, read from the package's own type definitions
 * (`MicrolinkApiOptions` and the types it names), as dotted keys: `screenshot.overlay.browser`, `pdf.margin.top`,
 * `data.<field>.selectorAll` (an index signature is `<field>`). A type met again inside itself (a rule's `attr`
 * holding rules) is not walked twice.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** The package's own declarations, found through its package.json (its `exports` do not list that file). */
function typeDefinitions(): ts.SourceFile {
  const root = new URL('../../node_modules/@microlink/mql/', import.meta.url);
  const { types } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { types: string };
  const path = new URL(types, root);
  return ts.createSourceFile(path.pathname, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
}

export function mqlOptionKeys(typeName: 'MicrolinkApiOptions' | 'MqlClientOptions'): string[] {
  const file = typeDefinitions();
  const aliases = new Map<string, ts.TypeNode>();
  file.forEachChild((node) => {
    if (ts.isTypeAliasDeclaration(node)) aliases.set(node.name.text, node.type);
  });
  const keys: string[] = [];
  const walk = (type: ts.TypeNode, prefix: string, seen: ReadonlySet<string>): void => {
    if (ts.isUnionTypeNode(type)) return type.types.forEach((member) => walk(member, prefix, seen));
    if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName)) {
      const name = type.typeName.text;
      const alias = aliases.get(name);
      if (alias && !seen.has(name)) walk(alias, prefix, new Set([...seen, name]));
      return;
    }
    if (!ts.isTypeLiteralNode(type)) return;
    for (const member of type.members) {
      if (ts.isIndexSignatureDeclaration(member)) {
        walk(member.type, `${prefix}<field>.`, seen);
      } else if (ts.isPropertySignature(member) && member.type && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))) {
        const key = `${prefix}${member.name.text}`;
        keys.push(key);
        walk(member.type, `${key}.`, seen);
      }
    }
  };
  const root = aliases.get(typeName);
  if (!root) throw new Error(`@microlink/mql's types no longer declare ${typeName}`);
  walk(root, '', new Set([typeName]));
  return [...new Set(keys)];
}
