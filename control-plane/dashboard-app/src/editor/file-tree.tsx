/**
 * The project's files as a tree of folders: pages, snippets, docs.json and assets, each with its
 * draft status (modified, added, deleted, renamed), who changed it, and who has it open now. Files are links to their
 * own editor URL; a folder is selected with a click (for moving or deleting it as a whole, or a
 * new page in it) and folded with a second one.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { TreeFile } from './api.ts';
import { fileUrl } from './paths.ts';

interface Folder { name: string; path: string; folders: Map<string, Folder>; files: TreeFile[] }

function build(files: TreeFile[]): Folder {
  const root: Folder = { name: '', path: '', folders: new Map(), files: [] };
  for (const f of files) {
    const parts = f.path.split('/');
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      let next = dir.folders.get(part);
      if (!next) {
        next = { name: part, path: dir.path ? `${dir.path}/${part}` : part, folders: new Map(), files: [] };
        dir.folders.set(part, next);
      }
      dir = next;
    }
    dir.files.push(f);
  }
  return root;
}

const STATUS_WORDS: Record<string, string> = { modified: 'modified', added: 'new', deleted: 'deleted', renamed: 'renamed' };

/** The status a file shows: a draft that moved the file reads "renamed". */
export function statusOf(f: TreeFile): string {
  return f.renamed_from && f.status !== 'deleted' ? 'renamed' : f.status;
}

function FileRow({ projectId, file, current, editing }: { projectId: string; file: TreeFile; current?: string; editing?: string[] }) {
  const status = statusOf(file);
  const name = file.path.split('/').pop()!;
  const who = file.updated_by ? (file.updated_by.name || file.updated_by.email) : '';
  const title = [
    file.path,
    status !== 'unchanged' ? STATUS_WORDS[status] : '',
    file.renamed_from ? `moved from ${file.renamed_from}` : '',
    who ? `changed by ${who}${file.updated_at ? ` ${new Date(file.updated_at).toLocaleString()}` : ''}` : '',
  ].filter(Boolean).join(' · ');
  const body = (
    <>
      <span class="tree-name">{name}</span>
      {status !== 'unchanged' && <span class={`tree-status status-${status}`}>{STATUS_WORDS[status]}</span>}
      {who && status !== 'unchanged' && <span class="tree-who">{who}</span>}
      {editing && editing.length > 0 && <span class="tree-editing" data-testid="editing-now">{editing.join(', ')} editing now</span>}
    </>
  );
  return (
    <li data-path={file.path} data-status={status}>
      {file.status === 'deleted'
        ? <span class="tree-file deleted" title={title}>{body}</span>
        : <a class="tree-file" href={fileUrl(projectId, file.path)} title={title} aria-current={current === file.path ? 'page' : undefined}>{body}</a>}
    </li>
  );
}

function FolderRow({ projectId, folder, current, selected, onSelect, editing }: { projectId: string; folder: Folder; current?: string; selected?: string; onSelect(path: string): void; editing: Record<string, string[]> }) {
  const [open, setOpen] = useState(true);
  const isSelected = selected === folder.path;
  // The first click selects the folder (for moving or deleting it, or a new page in it); a click on the selected folder folds it.
  const click = (e: Event) => {
    e.preventDefault();
    if (isSelected) setOpen(!open);
    else {
      setOpen(true);
      onSelect(folder.path);
    }
  };
  return (
    <li data-folder={folder.path}>
      <details open={open || current?.startsWith(`${folder.path}/`)}>
        <summary class={isSelected ? 'selected' : undefined} aria-current={isSelected ? 'true' : undefined} onClick={click}>{folder.name}/</summary>
        <Entries projectId={projectId} folder={folder} current={current} selected={selected} onSelect={onSelect} editing={editing} />
      </details>
    </li>
  );
}

function Entries({ projectId, folder, current, selected, onSelect, editing }: { projectId: string; folder: Folder; current?: string; selected?: string; onSelect(path: string): void; editing: Record<string, string[]> }): ComponentChildren {
  const folders = [...folder.folders.values()].sort((a, b) => a.name.localeCompare(b.name));
  const files = [...folder.files].sort((a, b) => (a.path === 'docs.json' ? -1 : b.path === 'docs.json' ? 1 : a.path.localeCompare(b.path)));
  return (
    <ul>
      {folders.map((f) => <FolderRow key={f.path} projectId={projectId} folder={f} current={current} selected={selected} onSelect={onSelect} editing={editing} />)}
      {files.map((f) => <FileRow key={f.path} projectId={projectId} file={f} current={current} editing={editing[f.path]} />)}
    </ul>
  );
}

export function FileTree({ projectId, files, current, selectedFolder, onSelectFolder, editing = {} }: { projectId: string; files: TreeFile[]; current?: string; selectedFolder?: string; onSelectFolder(path: string): void; editing?: Record<string, string[]> }) {
  return (
    <nav class="file-tree" aria-label="Files" data-testid="file-tree">
      {files.length === 0 ? <p class="muted">No files yet. Create the first page.</p> : <Entries projectId={projectId} folder={build(files)} current={current} selected={selectedFolder} onSelect={onSelectFolder} editing={editing} />}
    </nav>
  );
}
