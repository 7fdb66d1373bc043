import { appError } from '../errors.ts';
import { gitBlobId } from '../git/blob-id.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { confinePath } from '../limits/confine-path.ts';
import type { WorkingTree } from '../dev/working-tree.ts';

/** A commit of a repository with drafts laid over it, in memory: what a dev session builds for the editor. */
export interface DraftTree extends WorkingTree {
  /** Sets a draft (`null`: the file is deleted); `refresh([path])` makes it part of the tree. */
  set(repoPath: string, content: Uint8Array | null): void;
  /** Drops the draft of `repoPath`: the commit's file (or none) again. */
  unset(repoPath: string): void;
  /** The commit under the drafts. */
  base: RepoSnapshot;
}

/**
 * Opens `base` (a commit's snapshot) with `drafts` over it. Files nobody edited are read from the
 * commit; drafts are held in memory. Blob ids are Git's, so the page cache built for the commit
 * (and for other drafts of it) is shared.
 */
export function openDraftTree(base: RepoSnapshot, drafts: Iterable<[string, Uint8Array | null]> = []): DraftTree {
  const overlay = new Map<string, Uint8Array | null>();
  const files = new Map(base.files);
  const apply = (repoPath: string) => {
    const draft = overlay.get(repoPath);
    if (draft === undefined) {
      const oid = base.files.get(repoPath);
      if (oid === undefined) files.delete(repoPath);
      else files.set(repoPath, oid);
    } else if (draft === null) files.delete(repoPath);
    else files.set(repoPath, gitBlobId(draft));
  };
  for (const [p, content] of drafts) { overlay.set(confinePath(p), content); apply(confinePath(p)); }
  return {
    base,
    files,
    get sizeBytes() {
      let extra = 0;
      for (const d of overlay.values()) extra += d?.byteLength ?? 0;
      return base.sizeBytes + extra;
    },
    ...(base.outsideLinks ? { outsideLinks: base.outsideLinks } : {}),
    async read(repoPath) {
      const draft = overlay.get(repoPath);
      if (draft) return draft;
      if (draft === null) throw appError('file_missing', `No file "${repoPath}" in the drafts`);
      return base.read(repoPath);
    },
    set(repoPath, content) {
      overlay.set(confinePath(repoPath), content);
    },
    unset(repoPath) {
      overlay.delete(confinePath(repoPath));
    },
    async refresh(repoPaths) {
      const changed: string[] = [];
      for (const raw of repoPaths) {
        const repoPath = confinePath(raw);
        const before = files.get(repoPath);
        apply(repoPath);
        if (files.get(repoPath) !== before) changed.push(repoPath);
      }
      return changed.sort();
    },
  };
}
