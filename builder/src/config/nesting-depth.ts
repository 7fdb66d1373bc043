/**
 * The nesting guard of the configuration: the schema recurses into navigation groups, so a file
 * nested thousands deep would overflow the stack. Depth is measured first, without recursion.
 */

/** Deepest nesting of arrays and objects a `docs.json` may have (navigation groups included). */
export const MAX_CONFIG_DEPTH = 64;

/** Depth of the deepest array or object in a parsed JSON value (0 for a scalar), iteratively. */
export function nestingDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    max = Math.max(max, depth + 1);
    if (max > MAX_CONFIG_DEPTH) return max;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return max;
}
