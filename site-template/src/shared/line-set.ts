/**
 * Line numbers as `<CodeBlock>` and code fences take them (`highlight`, `focus`): read by the
 * template's component and by the builder's highlighting, so both mark the same lines.
 */

/** Line numbers from `"[1,3,4]"`, `"1,3-5"`, `{1-2}` or a list of numbers. */
export function lineSet(value: unknown): Set<number> {
  const out = new Set<number>();
  const parts = Array.isArray(value) ? value.map(String) : typeof value === 'string' || typeof value === 'number' ? String(value).replace(/[[\]{}\s]/g, '').split(',') : [];
  for (const part of parts) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!range) continue;
    const from = Number(range[1]);
    const to = Math.min(range[2] ? Number(range[2]) : from, from + 10_000);
    for (let n = from; n <= to; n++) out.add(n);
  }
  return out;
}
