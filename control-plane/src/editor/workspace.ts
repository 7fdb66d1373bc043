/**
 * The project's files as the editor shows them: the repository at the production branch head
 * with the shared drafts laid over it. A draft of a file at head is `modified` (or `deleted`
 * when its content is null), a draft of a path not at head is `added`; a deletion draft of a
 * file no longer at head is left out (nothing to delete).
 */
import type { Deps } from '../http/route.ts';
import { listDrafts, type DraftRecord } from './drafts.ts';
import { fileKind, isTextPath, type FileKind } from './paths.ts';
import { headCommit, listRepoFiles, productionBranch, readRepoBlobs, readRepoFile, type RepoFile } from './repo-files.ts';

export type FileStatus = 'unchanged' | 'modified' | 'added' | 'deleted';

/** One path of the workspace. `draft` is the draft laid over it; `head` the file at head. */
export interface WorkspaceFile { path: string; kind: FileKind; size: number; status: FileStatus; head?: RepoFile; draft?: DraftRecord }

export interface Workspace {
  projectId: string;
  branch: string;
  head: string | null;
  /** Every path, sorted; deleted files included with status `deleted`. */
  files: WorkspaceFile[];
  byPath: Map<string, WorkspaceFile>;
  /** Head files' text read so far, by path (filled by {@link readTexts}). */
  texts: Map<string, string>;
}

const draftSize = (d: DraftRecord) => (d.content === null ? 0 : d.kind === 'binary' ? Buffer.from(d.content, 'base64').length : Buffer.byteLength(d.content));

/** Reads the head and the drafts of a project into one view. */
export async function loadWorkspace(deps: Deps, projectId: string): Promise<Workspace> {
  const [branch, head, drafts] = await Promise.all([productionBranch(deps, projectId), headCommit(deps, projectId), listDrafts(deps, projectId)]);
  const byPath = new Map<string, WorkspaceFile>();
  for (const f of head ? await listRepoFiles(deps, projectId, head) : []) byPath.set(f.path, { path: f.path, kind: fileKind(f.path), size: f.size, status: 'unchanged', head: f });
  for (const d of drafts) {
    const at = byPath.get(d.path);
    if (d.content === null) {
      if (at) Object.assign(at, { status: 'deleted', draft: d });
    } else if (at) Object.assign(at, { status: 'modified', draft: d, size: draftSize(d) });
    else byPath.set(d.path, { path: d.path, kind: fileKind(d.path), size: draftSize(d), status: 'added', draft: d });
  }
  const files = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { projectId, branch, head, files, byPath, texts: new Map() };
}

/** Whether the path is there to open (at head or drafted, and not deleted). */
export const present = (f: WorkspaceFile | undefined): f is WorkspaceFile => f !== undefined && f.status !== 'deleted';

/** The current bytes of a workspace file as stored: the draft's text or base64, or the head file's. */
export async function currentContent(deps: Deps, ws: Workspace, f: WorkspaceFile): Promise<{ kind: 'text' | 'binary'; content: string | null }> {
  if (f.draft) return { kind: f.draft.kind, content: f.draft.content };
  const bytes = ws.head ? await readRepoFile(deps, ws.projectId, ws.head, f.path) : undefined;
  const text = isTextPath(f.path);
  if (!bytes) return { kind: text ? 'text' : 'binary', content: null };
  return text ? { kind: 'text', content: bytes.toString('utf8') } : { kind: 'binary', content: bytes.toString('base64') };
}

/** The current text of a text file of the workspace (undefined: not there, deleted or binary). */
export async function currentText(deps: Deps, ws: Workspace, path: string): Promise<string | undefined> {
  const f = ws.byPath.get(path);
  if (!present(f)) return undefined;
  if (!f.draft && ws.texts.has(path)) return ws.texts.get(path);
  const c = await currentContent(deps, ws, f);
  return c.kind === 'text' && c.content !== null ? c.content : undefined;
}

/**
 * The folder pages live in (`docs.json` `contentRoot`; by default `docs/` when the repository
 * has one, else the root), as the builder decides it, so page URLs match the site's.
 */
export async function contentRoot(deps: Deps, ws: Workspace): Promise<string> {
  const config = await currentText(deps, ws, 'docs.json');
  if (config !== undefined) {
    try {
      const value = (JSON.parse(config) as { contentRoot?: unknown }).contentRoot;
      if (typeof value === 'string') return value.replace(/^(\.\/)+/, '');
    } catch { /* a broken docs.json: the default below, as the build would fail anyway */ }
  }
  return ws.files.some((f) => present(f) && f.path.startsWith('docs/')) ? 'docs/' : '';
}

/** Reads the head text of the files of `paths` that have no draft in one go (a site's pages), for {@link currentText}. */
export async function readTexts(deps: Deps, ws: Workspace, paths: string[]): Promise<void> {
  const files = paths.map((p) => ws.byPath.get(p)).filter((f): f is WorkspaceFile => present(f) && !f.draft && f.head !== undefined && !ws.texts.has(f.path));
  const blobs = await readRepoBlobs(deps, ws.projectId, files.map((f) => f.head!.blob));
  for (const f of files) {
    const bytes = blobs.get(f.head!.blob);
    if (bytes) ws.texts.set(f.path, bytes.toString('utf8'));
  }
}
