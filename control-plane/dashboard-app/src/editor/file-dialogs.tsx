/**
 * The file actions' dialogs: a new page (a title gives the path, which can be edited, and the
 * page starts with its frontmatter), and renaming or moving a file or folder (with the choice to
 * update links that point at the old path; the old URL keeps redirecting to the new one).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.ts';
import { ErrorNotice } from '../ui/notice.tsx';
import type { EditorApi, Moved } from './api.ts';
import { pagePath, starterPage } from './paths.ts';

function Modal({ title, id, onClose, children }: { title: string; id: string; onClose(): void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current!;
    if (!d.open) d.showModal();
    d.addEventListener('close', onClose);
    return () => d.removeEventListener('close', onClose);
  }, []);
  return (
    <dialog ref={ref} class="editor-dialog" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {children}
    </dialog>
  );
}

const asError = (err: unknown) => (err instanceof ApiError ? err : new ApiError(0, 'client_error', String(err)));

export function NewPageDialog({ api, folder, existing, onClose, onCreated }: { api: EditorApi; folder: string; existing: string[]; onClose(): void; onCreated(path: string): void }) {
  const [title, setTitle] = useState('');
  const [path, setPath] = useState('');
  const [edited, setEdited] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [pending, setPending] = useState(false);
  const shown = edited ? path : title.trim() ? pagePath(folder, title) : '';
  const create = async (e: Event) => {
    e.preventDefault();
    if (existing.includes(shown)) {
      setError(new ApiError(409, 'exists', `${shown} already exists; open it from the files, or choose another name.`));
      return;
    }
    setPending(true);
    try {
      await api.save(shown, starterPage(title), 0);
      onCreated(shown);
    } catch (err) {
      setError(asError(err));
    } finally {
      setPending(false);
    }
  };
  return (
    <Modal title="New page" id="new-page" onClose={onClose}>
      <form onSubmit={create}>
        <div class="field">
          <label for="new-page-title">Title</label>
          <input id="new-page-title" required value={title} onInput={(e) => setTitle(e.currentTarget.value)} autoFocus />
        </div>
        <div class="field">
          <label for="new-page-path">File path</label>
          <input id="new-page-path" required value={shown} aria-describedby="new-page-path-hint" onInput={(e) => { setEdited(true); setPath(e.currentTarget.value.trim()); }} />
          <p class="hint" id="new-page-path-hint">Where the page lives in the repository; folders are made as needed. Its address on the site follows the path.</p>
        </div>
        <ErrorNotice error={error} />
        <div class="button-row">
          <button type="submit" disabled={pending || !shown}>Create page</button>
          <button type="button" class="secondary" onClick={onClose}>Cancel</button>
        </div>
      </form>
    </Modal>
  );
}

export function MoveDialog({ api, from, folder, onClose, onMoved }: { api: EditorApi; from: string; folder: boolean; onClose(): void; onMoved(result: Moved): void }) {
  const [to, setTo] = useState(from);
  const [updateLinks, setUpdateLinks] = useState(true);
  const [error, setError] = useState<ApiError>();
  const [pending, setPending] = useState(false);
  const move = async (e: Event) => {
    e.preventDefault();
    setPending(true);
    try {
      onMoved(await api.move(from, to.trim().replace(/^\/+/, ''), updateLinks));
    } catch (err) {
      setError(asError(err));
    } finally {
      setPending(false);
    }
  };
  return (
    <Modal title={`Rename or move ${folder ? 'the folder' : 'the file'}`} id="move" onClose={onClose}>
      <form onSubmit={move}>
        <p>Moving <code>{from}</code>{folder ? ' and everything in it' : ''}.</p>
        <div class="field">
          <label for="move-to">New path</label>
          <input id="move-to" required value={to} onInput={(e) => setTo(e.currentTarget.value)} autoFocus />
        </div>
        <label class="check"><input type="checkbox" checked={updateLinks} onChange={(e) => setUpdateLinks(e.currentTarget.checked)} /> Update links in other pages that point at the old path</label>
        <p class="hint">The old address keeps working once published: readers who follow it are sent to the new one.</p>
        <ErrorNotice error={error} />
        <div class="button-row">
          <button type="submit" disabled={pending || !to.trim() || to.trim() === from}>Move</button>
          <button type="button" class="secondary" onClick={onClose}>Cancel</button>
        </div>
      </form>
    </Modal>
  );
}
