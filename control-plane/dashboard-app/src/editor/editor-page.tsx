/**
 * The web editor of one project (`/projects/:id/editor/<file path>`): the file tree, the file
 * in CodeMirror, the live preview beside it, the drafts and Publish. Each open file keeps its own
 * editor state (text, selection, undo history) while the page is open; text is saved to the
 * file's draft as it is typed and kept in the browser until the server confirms it.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api as dashboardApi, ApiError } from '../api.ts';
import { navigate } from '../router.ts';
import { can, useSession } from '../session.ts';
import { ProjectTabs } from '../ui/layout.tsx';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { useLoad } from '../ui/use-load.ts';
import { useProject } from '../ui/use-project.ts';
import { editorApi, type Draft, type FileBody, type Problem, type TreeFile } from './api.ts';
import { Autosave, type SaveState } from './autosave.ts';
import { problemsSpec } from './basic-setup.ts';
import { DraftsPanel } from './drafts-panel.tsx';
import { CodeEditor, EditorHost } from './editor-view.tsx';
import { MoveDialog, NewPageDialog } from './file-dialogs.tsx';
import { FileTree } from './file-tree.tsx';
import { clearLocal } from './local-copy.ts';
import { createState, reconcile } from './open-file.ts';
import { loadCollab, loadExtensions, loadInlineAi, loadPreview, type CollabModule, type CollabSession, type ExtensionsModule, type InlineAiModule, type PreviewModule } from './optional.ts';
import { fileUrl, isPage } from './paths.ts';
import { PublishDialog } from './publish-dialog.tsx';
import './editor.css';

interface Mods { extensions?: ExtensionsModule; preview?: PreviewModule; collab?: CollabModule; inlineAi?: InlineAiModule }

/** What the page shows about the open file. */
interface Shown {
  path: string;
  loading?: boolean;
  error?: ApiError;
  binary?: FileBody;
  deleted?: boolean;
  readOnly?: string;
  editingBy?: string[];
  notice?: string;
  kept?: string;
  /** Edited through the shared document (saved and shared as typed by the collaboration server). */
  live?: boolean;
}

const editingText = (names: string[]) => `${names.length ? names.join(', ') : 'Someone else'} ${names.length > 1 ? 'are' : 'is'} editing this page.`;

/** One open file's saving and collaboration. */
interface Open { autosave?: Autosave; collab?: CollabSession; shown: Shown }

const SAVE_WORDS: Record<SaveState, string> = {
  saved: 'Saved',
  unsaved: 'Unsaved changes',
  saving: 'Saving…',
  offline: 'Offline: your text is kept in this browser and saved when the server is back',
  error: 'Not saved',
};

const asError = (err: unknown) => (err instanceof ApiError ? err : new ApiError(0, 'client_error', String(err)));

/** Reports who else has which file open (the collaboration module's hook, mounted once it is loaded). */
function Presence({ mod, projectId, me, onChange }: { mod: CollabModule; projectId: string; me: { id: string }; onChange(editing: Record<string, string[]>): void }) {
  const editing = mod.useEditingNow!(projectId, me);
  const key = JSON.stringify(editing);
  useEffect(() => onChange(editing), [key]);
  return null;
}

export function EditorPage({ id, path }: { id: string; path?: string }) {
  const { session } = useSession();
  const project = useProject(id);
  const api = useMemo(() => editorApi(id), [id]);
  const tree = useLoad(() => api.tree(), [api]);
  const canEdit = can(session, 'content.edit');
  const canPublish = can(session, 'content.publish');
  const plan = useLoad(() => dashboardApi<{ features: Record<string, { enabled?: boolean }> }>('GET', '/plan').catch(() => ({ features: {} as Record<string, { enabled?: boolean }> })), []);
  const hasCollab = !!plan.data?.features.multi_user_collaboration?.enabled;
  const mods = useLoad<Mods>(async () => {
    const [extensions, preview, collab, inlineAi] = await Promise.all([loadExtensions(), loadPreview(), loadCollab(), loadInlineAi()]);
    return { extensions, preview, collab, inlineAi };
  }, []);

  const host = useMemo(() => new EditorHost(), []);
  useEffect(() => () => host.destroy(), [host]);
  const opened = useRef(new Map<string, Open>());
  const [shown, setShown] = useState<Shown>();
  const [saveState, setSaveState] = useState<{ state: SaveState; error?: ApiError }>({ state: 'saved' });
  const [previewText, setPreviewText] = useState('');
  const [dialog, setDialog] = useState<'new' | 'move' | 'publish' | 'drafts'>();
  const [selectedFolder, setSelectedFolder] = useState<string>();
  const [message, setMessage] = useState<string>();
  const [actionError, setActionError] = useState<ApiError>();
  const [draftsVersion, setDraftsVersion] = useState(0);
  const [drafts, setDrafts] = useState<Draft[]>([]);
  /** Bumped to read the shown file again (after a discard or a publish). */
  const [generation, setGeneration] = useState(0);
  const [editingNow, setEditingNow] = useState<Record<string, string[]>>({});
  /** A file was opened through the collaboration socket, so presence can be followed too. */
  const [collabUp, setCollabUp] = useState(false);
  const current = useRef<string | undefined>(undefined);
  current.current = path;

  const files: TreeFile[] = tree.data?.files ?? [];
  const reloadTree = useCallback(async () => {
    await tree.reload();
    setDraftsVersion((v) => v + 1);
  }, [tree.reload]);

  const update = (p: string, patch: Partial<Shown>) => {
    const o = opened.current.get(p);
    if (o) o.shown = { ...o.shown, ...patch };
    if (current.current === p) setShown((s) => ({ ...(s ?? { path: p }), ...patch }));
  };

  const saveNow = useCallback(() => {
    const p = current.current;
    const o = p ? opened.current.get(p) : undefined;
    void o?.autosave?.flush();
  }, []);

  // Open (or show again) the file in the address.
  useEffect(() => {
    if (!path || !mods.data || !plan.data) {
      if (!path) setShown(undefined);
      return;
    }
    const already = opened.current.get(path);
    if (already) {
      setShown(already.shown);
      if (host.states.has(path)) {
        host.show(path, () => { throw new Error('unreachable'); });
        setPreviewText(host.text(path) ?? '');
      }
      setSaveState({ state: already.autosave?.state ?? 'saved' });
      return;
    }
    const entry: Open = { shown: { path, loading: true } };
    opened.current.set(path, entry);
    setShown(entry.shown);
    setSaveState({ state: 'saved' });
    void (async () => {
      let file: FileBody;
      try {
        file = await api.file(path);
      } catch (err) {
        opened.current.delete(path);
        update(path, { loading: false, error: asError(err) });
        entry.shown = { path, error: asError(err) };
        if (current.current === path) setShown(entry.shown);
        return;
      }
      if (file.encoding === 'base64') {
        update(path, { loading: false, binary: file });
        return;
      }
      const r = reconcile(api.projectId, session.user.id, file);
      let readOnly = canEdit ? undefined : 'Your role can read these files but not change them.';
      const deleted = file.content === null;
      if (deleted) readOnly = 'This file is deleted in the drafts; discard the draft to bring it back.';
      let editingBy: string[] | undefined;
      const extra = [];
      if (mods.data!.inlineAi && canEdit) extra.push(mods.data!.inlineAi.inlineAiExtension({ projectId: api.projectId, path }));
      let live = false;
      if (mods.data!.collab && canEdit && !deleted) {
        // The shared document is the way to edit when the collaboration server answers: with the
        // plan's collaboration everyone writes together; without it one person writes and the
        // others read along, with the writer's name.
        try {
          const c = await mods.data!.collab.collabExtension({ projectId: api.projectId, path, user: session.user });
          entry.collab = c;
          extra.push(c.extension);
          live = true;
          setCollabUp(true);
          if (c.readOnly) {
            editingBy = c.editingBy ?? [];
            readOnly = editingText(editingBy);
          }
          c.onStatus((st) => {
            host.setReadOnly(path, st.readOnly);
            update(path, st.readOnly ? { readOnly: editingText(st.editingBy), editingBy: st.editingBy } : { readOnly: undefined, editingBy: undefined });
          });
        } catch {
          // No collaboration server, or it refused: the draft is saved by this page.
        }
      }
      if (!live && !readOnly) {
        entry.autosave = new Autosave(api, path, file.draft?.revision, file.content ?? '', {
          onState: (state, error) => {
            if (current.current === path) setSaveState({ state, error });
            if (state === 'saved') {
              const f = tree.data?.files.find((x) => x.path === path);
              if (!f || f.status === 'unchanged') void reloadTree();
            }
          },
          onConflict: (theirs, mine) => {
            host.replaceText(path, theirs.content ?? '');
            const who = theirs.draft?.updated_by ? (theirs.draft.updated_by.name || theirs.draft.updated_by.email) : 'Someone else';
            update(path, { notice: `${who} saved this file while you were typing; their text is loaded now.`, kept: mine });
          },
        });
      }
      if (current.current !== path && !opened.current.has(path)) return;
      const state = createState({ path, text: live ? file.content ?? '' : r.text, readOnly: !!readOnly, api, onSave: saveNow, mods: mods.data!.extensions, extra });
      host.states.set(path, state);
      if (current.current === path) {
        host.show(path, () => state);
        setPreviewText(state.doc.toString());
      }
      const notice = r.restored ? 'Text typed in this browser that had not reached the server was put back; it is being saved.' : r.kept !== undefined ? 'This file changed on the server since you typed in this browser; the server\'s text is shown.' : undefined;
      update(path, { loading: false, readOnly, editingBy, deleted, live, notice: live ? undefined : notice, kept: live ? undefined : r.kept });
      if (r.restored) entry.autosave?.changed(r.text);
    })();
  }, [path, mods.data, plan.data, api, generation]);

  // Changes of the shown file go to its autosave and the preview.
  useEffect(() => host.onChange((p, state, docChanged) => {
    if (!docChanged) return;
    const text = state.doc.toString();
    opened.current.get(p)?.autosave?.changed(text);
    if (p === current.current) setPreviewText(text);
  }), [host]);

  // Ctrl/Cmd-S anywhere on the page saves at once (the browser's own save dialog is of no use here).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        saveNow();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [saveNow]);

  // Leaving the page: stop saving timers (the browser keeps what was not saved) and collaboration.
  useEffect(() => () => {
    for (const o of opened.current.values()) {
      void o.autosave?.flush().finally(() => o.autosave?.stop());
      o.collab?.destroy();
    }
  }, []);

  const onProblems = useCallback((problems: (Problem & { file?: string })[]) => {
    const p = current.current;
    if (!p || host.current !== p) return;
    // Problems of other files (a snippet the page imports) have no place in this text.
    host.view.dispatch(problemsSpec(host.view.state, problems.filter((x) => !x.file || x.file === p)));
  }, [host]);

  /** Forgets open files under `paths` (moved, deleted or discarded) so they are read again. */
  const forget = (paths: string[] | undefined) => {
    for (const [p, o] of [...opened.current]) {
      if (paths && !paths.some((x) => p === x || p.startsWith(`${x}/`))) continue;
      o.autosave?.stop();
      o.collab?.destroy();
      opened.current.delete(p);
      host.forget(p);
      if (!paths) clearLocal(api.projectId, p);
    }
    if (paths) for (const p of paths) clearLocal(api.projectId, p);
  };

  const selection = selectedFolder ?? path;
  const isFolder = selection !== undefined && selection === selectedFolder;

  const remove = async () => {
    if (!selection) return;
    if (!confirm(`Delete ${isFolder ? `the folder ${selection} and everything in it` : selection}? It stays on the site until you publish, and you can discard the deletion until then.`)) return;
    try {
      const r = await api.remove(selection);
      forget(r.deleted.length ? r.deleted : [selection]);
      setMessage(`Deleted ${r.deleted.join(', ')}. Publish to remove ${r.deleted.length === 1 ? 'it' : 'them'} from the site.`);
      setSelectedFolder(undefined);
      setActionError(undefined);
      await reloadTree();
      navigate(fileUrl(id));
    } catch (err) {
      setActionError(asError(err));
    }
  };

  /** Waits (up to 8 s) until the draft holds the shared text of `p`, which the collaboration server saves a moment after typing. */
  const mirrored = async (p: string) => {
    const until = Date.now() + 8000;
    while (Date.now() < until) {
      const text = host.text(p);
      const f = await api.file(p).catch(() => undefined);
      if (!f || text === undefined || f.content === text) return;
      await new Promise((r) => setTimeout(r, 300));
    }
  };

  const openPublish = async () => {
    // Whatever is typed is saved first, so it is part of the commit.
    await Promise.all([...opened.current.values()].map((o) => o.autosave?.flush()));
    await Promise.all([...opened.current].filter(([, o]) => o.collab && !o.shown.readOnly).map(([p]) => mirrored(p)));
    try {
      setDrafts(await api.drafts());
      setDialog('publish');
    } catch (err) {
      setActionError(asError(err));
    }
  };

  const p = project.data;
  if (!p) return project.error ? <ErrorNotice error={project.error} /> : <Loading />;
  const binary = shown?.binary;
  const Preview = mods.data?.preview?.PreviewPane;
  const treeFile = files.find((f) => f.path === path);

  return (
    <div class="editor-page">
      <ProjectTabs id={id} name={p.name} current="editor" />
      <div class="editor-toolbar">
        <h1>Editor</h1>
        {canEdit && <button type="button" class="secondary" onClick={() => setDialog('new')}>New page</button>}
        {canEdit && selection && <button type="button" class="secondary" onClick={() => setDialog('move')}>Rename or move</button>}
        {canEdit && selection && <button type="button" class="secondary" onClick={remove}>Delete</button>}
        <button type="button" class="secondary" aria-pressed={dialog === 'drafts'} onClick={() => setDialog(dialog === 'drafts' ? undefined : 'drafts')}>Drafts</button>
        {shown?.live && !shown.readOnly && shown.path === path && <span class="save-state save-saved" role="status" data-testid="save-state" title="Changes are saved and shared with the others on this page as you type">Live</span>}
        {shown && !shown.live && !shown.readOnly && !binary && shown.path === path && (
          <span class={`save-state save-${saveState.state}`} role="status" data-testid="save-state" title={saveState.error?.message}>{SAVE_WORDS[saveState.state]}{saveState.state === 'error' && saveState.error ? `: ${saveState.error.message}` : ''}</span>
        )}
        {canPublish && <button type="button" class="publish-button" onClick={openPublish}>Publish</button>}
      </div>
      {!canEdit && <Notice>You can read the files; changing them needs a role that may edit content.</Notice>}
      {message && <Notice tone="success">{message}</Notice>}
      <ErrorNotice error={actionError ?? tree.error} />
      {dialog === 'drafts' && <DraftsPanel api={api} canEdit={canEdit} version={draftsVersion} onDiscarded={(paths) => { forget(paths); void reloadTree(); setGeneration((g) => g + 1); }} />}
      {canEdit && collabUp && mods.data?.collab?.useEditingNow && <Presence mod={mods.data.collab} projectId={id} me={session.user} onChange={setEditingNow} />}
      <div class="editor-columns">
        <aside class="editor-files">
          {tree.data ? <FileTree projectId={id} files={files} current={path} editing={editingNow} selectedFolder={selectedFolder} onSelectFolder={setSelectedFolder} /> : !tree.error && <Loading />}
        </aside>
        <section class="editor-main" aria-label={path ? `Editing ${path}` : 'Editor'}>
          {!path && <p class="muted editor-empty">Choose a file on the left, or create a page.</p>}
          {path && shown?.error && <ErrorNotice error={shown.error} />}
          {path && shown?.loading && <Loading />}
          {path && shown?.notice && (
            <Notice tone="warning">
              {shown.notice}
              {shown.kept !== undefined && <> <button type="button" class="link-button" onClick={() => { host.replaceText(path, shown.kept!); update(path, { notice: undefined, kept: undefined }); }}>Put my text back</button></>}
            </Notice>
          )}
          {path && shown?.readOnly && (
            <Notice tone="info">
              <span data-testid="read-only">{shown.readOnly}</span>
              {shown.editingBy && !hasCollab && <> On your plan a page opens read-only while someone else edits it; <a href="/settings/plan">editing together in real time</a> comes with Pro.</>}
            </Notice>
          )}
          {binary && <AssetView file={binary} />}
          <div class="editor-split" hidden={!path || !!binary || !!shown?.error || !host.states.has(path)}>
            <CodeEditor host={host} />
            {Preview && path && isPage(path) && !shown?.deleted && (
              <div class="editor-preview">
                <Preview projectId={id} path={path} content={previewText} onProblems={onProblems} />
              </div>
            )}
          </div>
          {treeFile?.updated_by && treeFile.status !== 'unchanged' && <p class="muted editor-who">Last changed by {treeFile.updated_by.name || treeFile.updated_by.email}{treeFile.updated_at ? `, ${new Date(treeFile.updated_at).toLocaleString()}` : ''}.</p>}
        </section>
      </div>
      {dialog === 'new' && (
        <NewPageDialog api={api} existing={files.filter((f) => f.status !== 'deleted').map((f) => f.path)} folder={selectedFolder ?? (path?.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '')} onClose={() => setDialog(undefined)} onCreated={async (created) => {
          setDialog(undefined);
          await reloadTree();
          navigate(fileUrl(id, created));
        }} />
      )}
      {dialog === 'move' && selection && (
        <MoveDialog api={api} from={selection} folder={isFolder} onClose={() => setDialog(undefined)} onMoved={async (r) => {
          setDialog(undefined);
          forget([selection, ...r.updated]);
          setSelectedFolder(undefined);
          const updated = r.updated.filter((u) => !r.moved.some((m) => m.to === u));
          setMessage(`Moved ${r.moved.map((m) => `${m.from} to ${m.to}`).join(', ')}.${updated.length ? ` Links updated in ${updated.join(', ')}.` : r.links.length ? ` ${r.links.length} links still point at the old path.` : ''} The old address keeps working after you publish.`);
          await reloadTree();
          const target = r.moved.find((m) => m.from === path)?.to ?? (path && r.moved[0] ? path.replace(selection, r.moved[0].to) : undefined);
          navigate(fileUrl(id, target), true);
        }} />
      )}
      {dialog === 'publish' && tree.data && (
        <PublishDialog api={api} branch={tree.data.branch} drafts={drafts} onClose={() => { setDialog(undefined); void reloadTree(); }} onPublished={() => {
          // The drafts are now commits: read the open files again from the new head.
          forget(undefined);
          setGeneration((g) => g + 1);
          void reloadTree();
        }} />
      )}
    </div>
  );
}

function AssetView({ file }: { file: FileBody }) {
  const type = /\.png$/i.test(file.path) ? 'image/png' : /\.jpe?g$/i.test(file.path) ? 'image/jpeg' : /\.gif$/i.test(file.path) ? 'image/gif' : /\.webp$/i.test(file.path) ? 'image/webp' : undefined;
  return (
    <div class="asset-view">
      {type && file.content ? <img src={`data:${type};base64,${file.content}`} alt={file.path} /> : <p class="muted">{file.path} is a file the editor does not show as text.</p>}
    </div>
  );
}

