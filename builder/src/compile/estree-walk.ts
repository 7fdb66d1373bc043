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
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'loc' && key !== 'range' && key !== 'position' && typeof value === 'object' && value !== null) eachEsNode(value, visit);
  }
}
