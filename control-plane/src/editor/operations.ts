/**
 * The editor's changes beyond saving one file: moving or renaming a file or folder (with the
 * links to it), deleting, discarding, and storing an uploaded asset. Each is expressed as
 * drafts, so publishing turns them into one commit like any edit.
 */
import { AppError, notFound } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { UPLOAD_LIMIT_BYTES } from '../http/limits.ts';
import { confineName } from '../uploads/asset-path.ts';
import { detectFile, type FileKind } from '../uploads/detect-type.ts';
import { tooLarge } from './limits.ts';
import { discardDrafts, getDraft, saveDraft } from './drafts.ts';
import { linksTo, rewriteLinks, type FoundLink } from './page-index.ts';
import { editorPath, invalidPath, isTextPath, movedPath } from './paths.ts';
import { currentContent, currentText, loadWorkspace, present, type Workspace, type WorkspaceFile } from './workspace.ts';

/** Files under `path` (the file itself, or every file in the folder), as they are now. */
function filesAt(ws: Workspace, path: string): WorkspaceFile[] {
  return ws.files.filter((f) => present(f) && (f.path === path || f.path.startsWith(`${path}/`)));
}

const nothingAt = (path: string) => notFound(`File or folder ${path}`);

/**
 * 409 `path_exists` when a file cannot be at `path` because a file holds one of its folders
 * (`index.mdx/a.mdx`) or a folder has its name: Git could not commit both.
 */
export function assertRoomFor(ws: Workspace, field: string, path: string): void {
  const parts = path.split('/');
  for (let n = 1; n < parts.length; n++) {
    const folder = parts.slice(0, n).join('/');
    if (present(ws.byPath.get(folder))) throw new AppError(409, 'path_exists', `${field}: Unexpected file ${folder} where a folder is needed; choose another path`);
  }
  if (ws.files.some((f) => present(f) && f.path.startsWith(`${path}/`))) throw new AppError(409, 'path_exists', `${field}: Unexpected existing folder ${path}; choose another path`);
}

/** Moves the file or folder `from` to `to` as drafts; lists (and with `updateLinks` rewrites) the links to its pages. */
export async function moveFiles(deps: Deps, projectId: string, userId: string, rawFrom: string, rawTo: string, updateLinks: boolean) {
  const from = editorPath('From', rawFrom, 'any');
  let ws = await loadWorkspace(deps, projectId);
  const sources = filesAt(ws, from);
  if (sources.length === 0) throw nothingAt(from);
  const isFile = sources.length === 1 && sources[0]!.path === from;
  // A file keeps a name the editor can open (a page stays a page); a folder takes any name.
  const to = editorPath('To', rawTo, isFile && isTextPath(from) ? 'text' : 'any');
  if (to === from) throw invalidPath('To', 'Unexpected same path as from; expected a new path');
  if (!isFile && to.startsWith(`${from}/`)) throw invalidPath('To', `Unexpected folder inside ${from}; expected a path outside the folder being moved`);
  const moved = sources.map((f) => ({ file: f, from: f.path, to: movedPath(f.path, from, to)! }));
  for (const m of moved) {
    if (present(ws.byPath.get(m.to))) throw new AppError(409, 'path_exists', `To: Unexpected existing file ${m.to}; delete it first or choose another path`);
    assertRoomFor(ws, 'To', m.to);
  }
  for (const m of moved) {
    const { kind, content } = await currentContent(deps, ws, m.file);
    // The chain of a file moved twice leads back to where it is at head.
    const origin = m.file.draft?.renamed_from ?? (m.file.head ? m.from : null);
    await saveDraft(deps, projectId, userId, { path: m.to, content, kind, renamed_from: origin === m.to ? null : origin });
    if (m.file.head) await saveDraft(deps, projectId, userId, { path: m.from, content: null, kind, renamed_from: null });
    else await discardDrafts(deps, projectId, [m.from]);
  }
  ws = await loadWorkspace(deps, projectId);
  const pairs = moved.map(({ from: f, to: t }) => ({ from: f, to: t }));
  const links = await linksTo(deps, ws, pairs);
  const updated: string[] = [];
  if (updateLinks) {
    const byFile = new Map<string, FoundLink[]>();
    for (const l of links) byFile.set(l.path, [...(byFile.get(l.path) ?? []), l]);
    for (const [path, list] of byFile) {
      const text = await currentText(deps, ws, path);
      if (text === undefined) continue;
      const next = rewriteLinks(text, list);
      if (next === text) continue;
      const draft = ws.byPath.get(path)?.draft;
      await saveDraft(deps, projectId, userId, { path, content: next, kind: 'text', ...(draft ? { renamed_from: draft.renamed_from } : {}) });
      updated.push(path);
    }
  }
  return { moved: pairs, links: links.map(({ path, line, text }) => ({ path, line, text })), updated };
}

/** Deletes a file or folder as drafts: deletion drafts for files at head, and drafts of new files dropped. */
export async function deleteFiles(deps: Deps, projectId: string, userId: string, rawPath: string): Promise<string[]> {
  const path = editorPath('Path', rawPath, 'any');
  const ws = await loadWorkspace(deps, projectId);
  const files = filesAt(ws, path);
  if (files.length === 0) throw nothingAt(path);
  for (const f of files) {
    if (f.head) await saveDraft(deps, projectId, userId, { path: f.path, content: null, kind: f.draft?.kind ?? (isTextPath(f.path) ? 'text' : 'binary'), renamed_from: null });
    else await discardDrafts(deps, projectId, [f.path]);
  }
  return files.map((f) => f.path);
}

/**
 * Discards drafts (all without `paths`). Discarding the new half of a move also discards the
 * deletion draft at the path it came from, so the file is back where it was instead of lost.
 */
export async function discardFiles(deps: Deps, projectId: string, rawPaths?: string[]): Promise<number> {
  if (!rawPaths) return discardDrafts(deps, projectId);
  const paths = rawPaths.map((p) => editorPath('Path', p, 'any'));
  const also: string[] = [];
  for (const p of paths) {
    const from = (await getDraft(deps, projectId, p))?.renamed_from;
    if (from && !paths.includes(from)) also.push(from);
  }
  return discardDrafts(deps, projectId, [...paths, ...also]);
}

/** What an editor upload may be: the upload API's image kinds, decided by content. */
export const EDITOR_ASSET_KINDS: readonly FileKind[] = ['svg', 'png', 'ico', 'webp', 'jpeg'];

/**
 * Stores an uploaded image as a binary draft in `folder` (default `public/`), with the upload
 * API's rules (uploads/): type from the bytes, SVG sanitised, 2 MB at most, the name confined to
 * safe characters. A different file already at the name gets `-2`, `-3`, … Returns its path and
 * the URL the site serves it at.
 */
export async function storeAsset(deps: Deps, projectId: string, userId: string, input: { path?: string; name: string; content_base64: string }) {
  const b64 = input.content_base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) throw new AppError(400, 'invalid_request', 'File: Unexpected character; expected base64');
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length === 0) throw new AppError(400, 'invalid_request', 'File: Unexpected empty file; expected an image');
  if (bytes.length > UPLOAD_LIMIT_BYTES) throw tooLarge('File', bytes.length, UPLOAD_LIMIT_BYTES, '2 MB');
  const file = detectFile('File', bytes, EDITOR_ASSET_KINDS);
  const folder = input.path === undefined ? 'public' : editorPath('Path', input.path, 'folder');
  const base = input.name.replace(/^.*[\\/]/, '');
  const dot = base.lastIndexOf('.');
  const stem = confineName(dot > 0 ? base.slice(0, dot) : base);
  const ws = await loadWorkspace(deps, projectId);
  const content = file.bytes.toString('base64');
  let path = `${folder}/${stem}.${file.ext}`;
  assertRoomFor(ws, 'Path', path);
  for (let n = 2; ; n++) {
    const at = ws.byPath.get(path);
    if (!present(at) || (await currentContent(deps, ws, at)).content === content) break;
    path = `${folder}/${stem}-${n}.${file.ext}`;
  }
  await saveDraft(deps, projectId, userId, { path, content, kind: 'binary' });
  // public/ is served from the site's root; other folders (images/) under their own name.
  const url = path.startsWith('public/') ? `/${path.slice('public/'.length)}` : `/${path}`;
  return { path, url };
}
