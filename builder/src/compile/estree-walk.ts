/** A node of an ESTree program (the expressions and ESM of an MDX page), loosely typed. */
export interface EsNode { type: string; loc?: { start: { line: number; column: number } } | null; [key: string]: unknown }

/**
 * Calls `visit` on every ESTree node in `node` (a program, a subtree or an array of them), parents
 * before children. Position data (`loc`, `range`, `position`) is not walked into.
 */
export function eachEsNode(node: unknown, visit: (n: EsNode) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) eachEsNode(child, visit);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  if (typeof (node as EsNode).type === 'string') visit(node as EsNode);
  // `for…in` over own keys visits them in Object.entries' order without allocating an array of
  // pairs per node: the walks run over every page's whole program.
  for (const key in node) {
    if (key === 'loc' || key === 'range' || key === 'position' || !Object.hasOwn(node, key)) continue;
    const value = (node as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null) eachEsNode(value, visit);
  }
}

/**
 * Calls `each` on every direct child node of `node` with the key it is under (a list's items each
 * under the list's key); position data is skipped. For walks that decide per parent and key, such
 * as which identifiers are read as names.
 */
export function eachEsChild(node: EsNode, each: (child: EsNode, key: string) => void): void {
  for (const key in node) {
    if (key === 'loc' || key === 'range' || key === 'position' || !Object.hasOwn(node, key)) continue;
    const value = node[key];
    if (typeof value !== 'object' || value === null) continue;
    for (const child of (Array.isArray(value) ? value : [value]) as EsNode[]) {
      if (child && typeof child.type === 'string') each(child, key);
    }
  }
}
