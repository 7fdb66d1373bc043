/**
 * A project's shared draft workspace: one draft per repository path on the production branch,
 * seen and edited by every member who may edit content, stored in `editor_drafts` so a closed
 * tab, a dropped network or a restart loses nothing. Publishing turns the drafts into one
 * commit; the routes (dashboard/editor-routes.ts), the preview and the collaboration server
 * all go through these functions.
 */
import type { Deps } from '../http/route.ts';
import type { EditorDraft } from '../db/models/editor-draft.ts';
import { AppError } from '../errors.ts';
import { headCommit, repoFileBlob } from './repo-files.ts';

/** A draft as the editor's modules see it. */
export interface DraftView {
  path: string;
  kind: 'text' | 'binary';
  /** Text, base64 for binary files, null for a deletion. */
  content: string | null;
  base_commit: string | null;
  base_blob: string | null;
  renamed_from: string | null;
  updated_by: string;
  updated_at: Date;
  revision: number;
}

/** Everything stored, for the routes that also show who created a draft. */
export type DraftRecord = DraftView & { created_by: string; created_at: Date };

/** 409 when a save names a revision that is no longer the draft's. */
export const draftConflict = (path: string) =>
  new AppError(409, 'draft_conflict', `The draft of ${path} changed since the revision you edited; reload it and apply your change again`);

type Listener = (projectId: string, path: string) => void;
const listeners = new Set<Listener>();

/**
 * Calls `listener(projectId, path)` after every saved or discarded draft in this process (the
 * preview recompiles, the collaboration server refreshes). Returns the function that stops it.
 */
export function onDraftChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}

function notify(projectId: string, path: string): void {
  for (const listener of listeners) {
    try { listener(projectId, path); } catch { /* a listener's failure is its own */ }
  }
}

function view(d: EditorDraft): DraftRecord {
  return {
    path: d.path, kind: d.kind, content: d.content ?? null, base_commit: d.base_commit ?? null,
    base_blob: d.base_blob ?? null, renamed_from: d.renamed_from ?? null, updated_by: d.updated_by,
    updated_at: d.updated_at, revision: d.revision, created_by: d.created_by, created_at: d.created_at,
  };
}

/** Every draft of the project, by path. */
export async function listDrafts(deps: Deps, projectId: string): Promise<DraftRecord[]> {
  const docs = await deps.m.EditorDraft.find({ project_id: projectId }).sort({ path: 1 }).lean<EditorDraft[]>();
  return docs.map(view);
}

/** The draft of one path, or undefined. */
export async function getDraft(deps: Deps, projectId: string, path: string): Promise<DraftRecord | undefined> {
  const doc = await deps.m.EditorDraft.findOne({ project_id: projectId, path }).lean<EditorDraft>();
  return doc ? view(doc) : undefined;
}

/**
 * Saves the draft of `input.path` (`content: null` deletes the file when published). The first
 * save of a path records the production branch's head and the file's blob there as its base,
 * which publishing merges against. With `revision`, the save happens only if the draft is still
 * at that revision (0: only if there is no draft yet), else 409 `draft_conflict`. `path` must
 * already be normalised (editor/paths.ts).
 */
export async function saveDraft(
  deps: Deps, projectId: string, userId: string,
  input: { path: string; content: string | null; kind?: 'text' | 'binary'; revision?: number; renamed_from?: string | null },
): Promise<DraftView> {
  const now = deps.now();
  const set: Record<string, unknown> = { content: input.content, updated_by: userId, updated_at: now };
  if (input.kind) set.kind = input.kind;
  if (input.renamed_from !== undefined) set.renamed_from = input.renamed_from;
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await deps.m.EditorDraft.findOne({ project_id: projectId, path: input.path }, { revision: 1 }).lean<EditorDraft>();
    if (input.revision !== undefined && (existing?.revision ?? 0) !== input.revision) throw draftConflict(input.path);
    if (existing) {
      const updated = await deps.m.EditorDraft.findOneAndUpdate(
        { project_id: projectId, path: input.path, revision: existing.revision },
        { $set: set, $inc: { revision: 1 } },
        { returnDocument: 'after' },
      ).lean<EditorDraft>();
      if (updated) { notify(projectId, input.path); return view(updated); }
      if (input.revision !== undefined) throw draftConflict(input.path);
      continue;
    }
    const base = await headCommit(deps, projectId);
    const blob = base ? await repoFileBlob(deps, projectId, base, input.path) : undefined;
    try {
      const created = await deps.m.EditorDraft.create({
        project_id: projectId, path: input.path, kind: input.kind ?? 'text', content: input.content,
        base_commit: base, base_blob: blob ?? null, renamed_from: input.renamed_from ?? null,
        created_by: userId, updated_by: userId, created_at: now, updated_at: now, revision: 1,
      });
      notify(projectId, input.path);
      return view(created.toObject() as EditorDraft);
    } catch (e) {
      // Someone created the same draft in between: a checked save lost, an unchecked one retries as an update.
      if ((e as { code?: number }).code !== 11000) throw e;
      if (input.revision !== undefined) throw draftConflict(input.path);
    }
  }
  throw draftConflict(input.path);
}

/** Removes the drafts of `paths` (all the project's drafts without it); returns how many. */
export async function discardDrafts(deps: Deps, projectId: string, paths?: string[]): Promise<number> {
  const filter = paths ? { project_id: projectId, path: { $in: paths } } : { project_id: projectId };
  const gone = await deps.m.EditorDraft.find(filter, { path: 1 }).lean<EditorDraft[]>();
  if (gone.length === 0) return 0;
  const { deletedCount } = await deps.m.EditorDraft.deleteMany({ project_id: projectId, path: { $in: gone.map((d) => d.path) } });
  for (const d of gone) notify(projectId, d.path);
  return deletedCount;
}

/**
 * Removes the drafts that were published, each only if it is still at the revision that was
 * published (a draft saved again during the publish stays, with its newer text); returns how
 * many went. Listeners hear of each path.
 */
export async function discardPublished(deps: Deps, projectId: string, published: ReadonlyArray<{ path: string; revision: number }>): Promise<number> {
  if (published.length === 0) return 0;
  const { deletedCount } = await deps.m.EditorDraft.deleteMany({ project_id: projectId, $or: published.map((d) => ({ path: d.path, revision: d.revision })) });
  for (const d of published) notify(projectId, d.path);
  return deletedCount;
}
