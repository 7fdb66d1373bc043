/**
 * What a set of drafts changes in a branch whose head may have moved since the drafts began:
 * each draft is compared with the file at its base (the blob it started from) and at the head.
 *
 * - The head still has the base's file: the draft is taken as it is.
 * - The head changed the file: a three-way merge (merge-text.ts, base = the file at the draft's
 *   base commit); a clean merge is taken, a conflict is answered with base, ours, theirs and a
 *   version with conflict markers, and nothing is written.
 * - The head deleted the file (or moved it): `upstream_deleted`, nothing written: the draft's
 *   text stays, and the writer decides (save it as a new file, or discard it).
 * - A deletion draft whose file the head changed is a conflict too (the change would be lost),
 *   unless a draft moved the file elsewhere (that draft carries the merged text).
 */
import type { DraftView } from '../drafts.ts';
import { mergeText } from './merge-text.ts';
import { readBlob, readTree, writeBlob, type TreeChange, type TreeEntry } from './git-plumbing.ts';

/** One file that cannot be merged: the three versions and the merge with conflict markers (null for binary files). */
export interface FileConflict { path: string; binary: boolean; base: string | null; ours: string | null; theirs: string | null; merged_with_markers: string | null }

export interface PlannedChanges {
  changes: TreeChange[];
  /** Paths merged with changes made on the branch since the draft began. */
  merged: string[];
  conflicts: FileConflict[];
  /** Drafts whose file the branch deleted or moved since the draft began. */
  upstreamDeleted: string[];
}

export type DraftInput = Pick<DraftView, 'path' | 'kind' | 'content' | 'base_commit' | 'base_blob' | 'renamed_from'>;

const bytesOf = (d: DraftInput) => Buffer.from(d.content ?? '', d.kind === 'binary' ? 'base64' : 'utf8');

/** Plans `drafts` onto the branch at `head` (undefined: an empty repository) of the bare repository `gitdir`. */
export async function planChanges(gitdir: string, head: string | undefined, drafts: DraftInput[], theirsLabel: string): Promise<PlannedChanges> {
  const headTree = await readTree(gitdir, head);
  const baseTrees = new Map<string, Map<string, TreeEntry>>();
  const baseTree = async (commit: string) => {
    let tree = baseTrees.get(commit);
    if (!tree) baseTrees.set(commit, tree = await readTree(gitdir, commit));
    return tree;
  };
  const text = async (blob: string | null | undefined) => (blob ? (await readBlob(gitdir, blob)).toString('utf8') : '');
  const movedAway = new Set(drafts.filter((d) => d.content !== null && d.renamed_from).map((d) => d.renamed_from!));
  const out: PlannedChanges = { changes: [], merged: [], conflicts: [], upstreamDeleted: [] };

  for (const d of drafts) {
    // The file the draft started from: its own path, or the one it was moved from.
    const from = d.renamed_from ?? d.path;
    let baseBlob = d.base_blob;
    if (!baseBlob && d.renamed_from && d.base_commit) baseBlob = (await baseTree(d.base_commit)).get(d.renamed_from)?.blob ?? null;
    const theirs = headTree.get(from);

    if (d.content === null) {
      if (!theirs) continue; // already gone
      if (movedAway.has(d.path) || !baseBlob || theirs.blob === baseBlob) {
        out.changes.push({ path: d.path, blob: null });
        continue;
      }
      // Deleting a file changed since would drop that change: the writer decides.
      const binary = d.kind === 'binary';
      const theirsText = binary ? null : await text(theirs.blob);
      out.conflicts.push({
        path: d.path, binary, base: binary ? null : await text(baseBlob), ours: binary ? null : '', theirs: theirsText,
        merged_with_markers: binary ? null : `<<<<<<< draft (deleted)\n=======\n${theirsText}${theirsText!.endsWith('\n') || !theirsText ? '' : '\n'}>>>>>>> ${theirsLabel}\n`,
      });
      continue;
    }

    const ours = bytesOf(d);
    if (!baseBlob) {
      // A new file; the branch may have added one at the same path meanwhile.
      const there = headTree.get(d.path);
      if (!there) {
        out.changes.push({ path: d.path, blob: await writeBlob(gitdir, ours) });
        continue;
      }
      const theirsBytes = await readBlob(gitdir, there.blob);
      if (theirsBytes.equals(ours)) continue;
      if (d.kind === 'binary') {
        out.conflicts.push({ path: d.path, binary: true, base: null, ours: null, theirs: null, merged_with_markers: null });
        continue;
      }
      const result = mergeText('', d.content, theirsBytes.toString('utf8'), { ours: 'draft', theirs: theirsLabel });
      if (!result.clean) {
        out.conflicts.push({ path: d.path, binary: false, base: '', ours: d.content, theirs: theirsBytes.toString('utf8'), merged_with_markers: result.withMarkers });
        continue;
      }
      out.changes.push({ path: d.path, blob: await writeBlob(gitdir, Buffer.from(result.text, 'utf8')), mode: there.mode });
      out.merged.push(d.path);
      continue;
    }

    if (!theirs) {
      out.upstreamDeleted.push(d.path);
      continue;
    }
    if (theirs.blob === baseBlob) {
      out.changes.push({ path: d.path, blob: await writeBlob(gitdir, ours), mode: theirs.mode });
      continue;
    }
    if (d.kind === 'binary') {
      const theirsBytes = await readBlob(gitdir, theirs.blob);
      if (theirsBytes.equals(ours)) { if (d.renamed_from) out.changes.push({ path: d.path, blob: theirs.blob, mode: theirs.mode }); continue; }
      out.conflicts.push({ path: d.path, binary: true, base: null, ours: null, theirs: null, merged_with_markers: null });
      continue;
    }
    const baseText = await text(baseBlob);
    const theirsText = await text(theirs.blob);
    const result = mergeText(baseText, d.content, theirsText, { ours: 'draft', theirs: theirsLabel });
    if (!result.clean) {
      out.conflicts.push({ path: d.path, binary: false, base: baseText, ours: d.content, theirs: theirsText, merged_with_markers: result.withMarkers });
      continue;
    }
    out.changes.push({ path: d.path, blob: await writeBlob(gitdir, Buffer.from(result.text, 'utf8')), mode: theirs.mode });
    out.merged.push(d.path);
  }
  return out;
}
