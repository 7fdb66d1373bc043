/**
 * Rename detection between the files of the last published commit and the files of this one,
 * the way Git's diff finds renames: a deleted and an added path with the same blob are a rename;
 * then, among the rest, pairs whose contents are at least 50% similar (Git's default threshold),
 * best first. Similarity here is the share of bytes in lines the two versions have in common,
 * as Git measures it (bytes, not lines): blank lines and frontmatter fences, which every page
 * has, weigh next to nothing, so two short unrelated pages are not taken for a rename.
 */

/** One detected rename. */
export interface Rename { from: string; to: string; /** 100 for the same bytes. */ similarity: number }

/** Git's default `-M` threshold, in percent. */
export const RENAME_THRESHOLD = 50;
/** Like Git's `diff.renameLimit`: past this many candidate pairs only exact renames are found. */
export const MAX_INEXACT_PAIRS = 10_000;

function lineCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) counts.set(line, (counts.get(line) ?? 0) + 1);
  return counts;
}

/** Bytes of a line with its newline. */
const weight = (line: string) => Buffer.byteLength(line) + 1;

/** Percent of bytes two texts share in common lines (twice the common bytes over both texts' bytes). */
export function similarity(a: string, b: string): number {
  const ca = lineCounts(a);
  const cb = lineCounts(b);
  let common = 0;
  for (const [line, n] of ca) common += Math.min(n, cb.get(line) ?? 0) * weight(line);
  let total = 0;
  for (const counts of [ca, cb]) for (const [line, n] of counts) total += n * weight(line);
  return total === 0 ? 100 : Math.floor((200 * common) / total);
}

/**
 * Renames from `deleted` (path → blob id, previous commit) to `added` (path → blob id, this
 * commit). `readBlob` reads a blob of either commit (`undefined` when it is not at hand, as for
 * a plain folder's previous version); without it only exact renames are found.
 */
export async function detectRenames(
  deleted: ReadonlyMap<string, string>, added: ReadonlyMap<string, string>,
  readBlob?: (oid: string) => Promise<Uint8Array | undefined>,
): Promise<Rename[]> {
  const renames: Rename[] = [];
  const from = new Map(deleted);
  const to = new Map(added);
  // Exact: the same blob; with several candidates, the same file name wins, then path order.
  for (const [newPath, oid] of [...to].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const candidates = [...from].filter(([, o]) => o === oid).map(([p]) => p).sort();
    if (!candidates.length) continue;
    const base = newPath.split('/').pop();
    const old = candidates.find((p) => p.split('/').pop() === base) ?? candidates[0];
    renames.push({ from: old, to: newPath, similarity: 100 });
    from.delete(old);
    to.delete(newPath);
  }
  if (!readBlob || !from.size || !to.size || from.size * to.size > MAX_INEXACT_PAIRS) return renames;
  const text = async (oid: string) => { const b = await readBlob(oid); return b && Buffer.from(b).toString('utf8'); };
  const oldTexts = new Map<string, string>();
  for (const [p, oid] of from) { const t = await text(oid); if (t !== undefined) oldTexts.set(p, t); }
  const pairs: Rename[] = [];
  for (const [newPath, oid] of to) {
    const t = await text(oid);
    if (t === undefined) continue;
    for (const [oldPath, old] of oldTexts) {
      const score = similarity(old, t);
      if (score >= RENAME_THRESHOLD) pairs.push({ from: oldPath, to: newPath, similarity: score });
    }
  }
  pairs.sort((a, b) => b.similarity - a.similarity || (a.to < b.to ? -1 : 1));
  const usedFrom = new Set<string>();
  const usedTo = new Set<string>();
  for (const pair of pairs) {
    if (usedFrom.has(pair.from) || usedTo.has(pair.to)) continue;
    usedFrom.add(pair.from);
    usedTo.add(pair.to);
    renames.push(pair);
  }
  return renames.sort((a, b) => (a.to < b.to ? -1 : 1));
}
