/**
 * The editor's calls to the dashboard API (`/dashboard/api/projects/:id/editor/...`): the file
 * tree, files and drafts, moves and deletions, assets, and publishing. One client object per
 * project, so the editing extensions can be handed the few calls they need.
 */
import { api } from '../api.ts';

export type FileKind = 'page' | 'snippet' | 'config' | 'asset' | 'other';
export type FileStatus = 'unchanged' | 'modified' | 'added' | 'deleted';
export interface Person { id: string; name: string; email: string }

export interface TreeFile {
  path: string;
  kind: FileKind;
  size: number;
  status: FileStatus;
  renamed_from?: string;
  updated_by?: Person;
  updated_at?: string;
}
export interface Tree { branch: string; head: string | null; files: TreeFile[] }

export interface FileBody {
  path: string;
  kind: 'text' | 'binary' | FileKind;
  encoding: 'utf8' | 'base64';
  /** null: the file is deleted in the drafts. */
  content: string | null;
  base_commit: string | null;
  base_content: string | null;
  draft: { revision: number; updated_by: Person; updated_at: string } | null;
}

export interface Saved { path: string; revision: number; updated_at: string }
export interface Moved { moved: { from: string; to: string }[]; links: { path: string; line: number; text: string }[]; updated: string[] }
export interface Draft { path: string; status: FileStatus; renamed_from?: string; updated_by: Person; updated_at: string; created_by: Person }
export interface Problem { line: number; column: number; message: string }
export interface LinkPage { path: string; url: string; title: string; headings: { id: string; text: string; depth: number }[] }
/** `deployment_id` is null when nothing was queued (the branch was already there). */
export interface Published { commit: string; branch: string; deployment_id: string | null; merged: string[]; site_url: string }
export interface Conflict { path: string; base: string | null; ours: string | null; theirs: string | null; merged_with_markers: string }
export interface Branch { name: string; head: string; preview_url?: string }

/** The editor API of one project. */
export interface EditorApi {
  projectId: string;
  tree(): Promise<Tree>;
  file(path: string): Promise<FileBody>;
  save(path: string, content: string | null, revision?: number): Promise<Saved>;
  move(from: string, to: string, updateLinks?: boolean): Promise<Moved>;
  remove(path: string): Promise<{ deleted: string[] }>;
  uploadAsset(input: { name: string; content_base64: string; path?: string }): Promise<{ path: string; url: string }>;
  drafts(): Promise<Draft[]>;
  discard(paths?: string[]): Promise<{ discarded: number }>;
  validateConfig(content: string): Promise<{ problems: Problem[] }>;
  links(): Promise<{ pages: LinkPage[] }>;
  publish(input: { message: string; branch?: string; paths?: string[] }): Promise<Published>;
  resolve(path: string, content: string): Promise<unknown>;
  merge(branch: string): Promise<Published>;
  branches(): Promise<Branch[]>;
}

export function editorApi(projectId: string): EditorApi {
  const base = `/projects/${encodeURIComponent(projectId)}/editor`;
  return {
    projectId,
    tree: () => api<Tree>('GET', `${base}/tree`),
    file: (path) => api<FileBody>('GET', `${base}/file?path=${encodeURIComponent(path)}`),
    save: (path, content, revision) => api<Saved>('PUT', `${base}/file`, { path, content, ...(revision !== undefined ? { revision } : {}) }),
    move: (from, to, updateLinks) => api<Moved>('POST', `${base}/move`, { from, to, ...(updateLinks !== undefined ? { update_links: updateLinks } : {}) }),
    remove: (path) => api('POST', `${base}/delete`, { path }),
    uploadAsset: (input) => api('POST', `${base}/assets`, input),
    drafts: async () => (await api<{ data: Draft[] }>('GET', `${base}/drafts`)).data,
    discard: (paths) => api('POST', `${base}/discard`, paths ? { paths } : {}),
    validateConfig: (content) => api('POST', `${base}/validate-config`, { content }),
    links: () => api('GET', `${base}/links`),
    publish: (input) => api<Published>('POST', `${base}/publish`, input),
    resolve: (path, content) => api('POST', `${base}/resolve`, { path, content }),
    merge: (branch) => api<Published>('POST', `${base}/merge`, { branch }),
    branches: async () => (await api<{ data: Branch[] }>('GET', `${base}/branches`)).data,
  };
}
