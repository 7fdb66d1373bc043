/** The run's changes as a unified diff (per file, a few lines of context), for the writer to review. */
const CONTEXT = 3;

type Op = { op: ' ' | '-' | '+'; line: string };

function lineOps(a: string[], b: string[]): Op[] {
  if (a.length * b.length > 4_000_000) return [...a.map((line) => ({ op: '-' as const, line })), ...b.map((line) => ({ op: '+' as const, line }))];
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { ops.push({ op: ' ', line: a[i] }); i++; j++; }
    else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) { ops.push({ op: '-', line: a[i] }); i++; }
    else { ops.push({ op: '+', line: b[j] }); j++; }
  }
  return ops;
}

/** One file's diff (`before`/`after` undefined: the file is new / deleted). */
export function fileDiff(path: string, before: string | undefined, after: string | undefined): string {
  if (before === after) return '';
  const a = before === undefined ? [] : before.split('\n');
  const b = after === undefined ? [] : after.split('\n');
  const ops = lineOps(a, b);
  const out = [`--- ${before === undefined ? '/dev/null' : `a/${path}`}`, `+++ ${after === undefined ? '/dev/null' : `b/${path}`}`];
  let k = 0;
  let oldLine = 1;
  let newLine = 1;
  while (k < ops.length) {
    if (ops[k].op === ' ') { k++; oldLine++; newLine++; continue; }
    // A hunk: from CONTEXT lines before this change to CONTEXT lines after the last change near it.
    const start = Math.max(0, k - CONTEXT);
    let last = k;
    for (let i = k; i < ops.length && i - last <= CONTEXT * 2; i++) if (ops[i].op !== ' ') last = i;
    const end = Math.min(ops.length, last + 1 + CONTEXT);
    const back = k - start;
    const hunk = ops.slice(start, end);
    const oldCount = hunk.filter((o) => o.op !== '+').length;
    const newCount = hunk.filter((o) => o.op !== '-').length;
    out.push(`@@ -${oldLine - back},${oldCount} +${newLine - back},${newCount} @@`, ...hunk.map((o) => `${o.op}${o.line}`));
    for (const o of ops.slice(k, end)) { if (o.op !== '+') oldLine++; if (o.op !== '-') newLine++; }
    k = end;
  }
  return `${out.join('\n')}\n`;
}
