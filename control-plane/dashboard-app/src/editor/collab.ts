/**
 * Real-time collaboration in the editor: one file's text shared through the control plane's
 * collaboration socket (`/dashboard/api/projects/:id/editor/collab`, Hocuspocus over WebSocket,
 * the session cookie authenticates it) and bound to CodeMirror with `yCollab`: every person's
 * cursor and selection are shown in their colour with their name.
 *
 * - `collabExtension({ projectId, path, user })` resolves once the file is synced and the server
 *   said whether this person may write: `readOnly` (the organization's plan has no
 *   `multi_user_collaboration` and someone else is writing the file) and `editingBy` (the names
 *   of the others writing it). It rejects when the server refuses (the reason is the dashboard's
 *   `{ error, message }`), so the page can fall back to saving drafts itself.
 * - One socket per project carries every open file and the presence channel; it reconnects on
 *   its own (the provider resyncs what was typed offline).
 * - `useEditingNow(projectId)` (Preact hook) answers who has which file open now, for the file
 *   tree: `{ [path]: names }`, other people only.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { Compartment, EditorState, Transaction, type Extension } from '@codemirror/state';
import { EditorView, ViewPlugin } from '@codemirror/view';
import { useEffect, useState } from 'preact/hooks';
import { yCollab, ySyncAnnotation, ySyncFacet } from 'y-codemirror.next';
import * as Y from 'yjs';

/** The Y.Text the server shares (the same name on both sides). */
const TEXT_KEY = 'content';
/** The project's presence channel (awareness only). */
const PRESENCE_DOCUMENT = ':presence';

export interface CollabUser { id: string; name: string; email: string }
export interface CollabSession {
  extension: Extension;
  readOnly: boolean;
  editingBy?: string[];
  /** Called when the server changes this person's access (the writer left, so this one may write now). */
  onStatus(listener: (status: { readOnly: boolean; editingBy: string[] }) => void): void;
  destroy(): void;
}

const COLOURS = ['#d1495b', '#00798c', '#edae49', '#30638e', '#6a4c93', '#2a9d8f', '#e76f51', '#8ab17d'];

/** A stable colour per person. */
export function colourOf(userId: string): { color: string; colorLight: string } {
  let h = 0;
  for (const ch of userId) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const color = COLOURS[h % COLOURS.length]!;
  return { color, colorLight: `${color}33` };
}

function collabUrl(projectId: string): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/dashboard/api/projects/${encodeURIComponent(projectId)}/editor/collab`;
}

interface ProjectSocket {
  socket: HocuspocusProviderWebsocket;
  users: number;
  presence?: HocuspocusProvider;
  /** Paths this tab has open, told to others through the presence channel. */
  open: Map<string, number>;
  user?: CollabUser;
}
const sockets = new Map<string, ProjectSocket>();

function projectSocket(projectId: string): ProjectSocket {
  let s = sockets.get(projectId);
  if (!s) {
    s = { socket: new HocuspocusProviderWebsocket({ url: collabUrl(projectId), maxDelay: 10_000 }), users: 0, open: new Map() };
    sockets.set(projectId, s);
  }
  s.users++;
  return s;
}

function presenceOf(s: ProjectSocket): HocuspocusProvider {
  if (!s.presence) {
    s.presence = new HocuspocusProvider({ websocketProvider: s.socket, name: PRESENCE_DOCUMENT, token: 'session' });
    s.presence.attach();
  }
  return s.presence;
}

function tellPresence(s: ProjectSocket): void {
  if (!s.user) return;
  presenceOf(s).setAwarenessField('user', { id: s.user.id, name: s.user.name || s.user.email, ...colourOf(s.user.id) });
  presenceOf(s).setAwarenessField('paths', [...s.open.keys()]);
}

function release(projectId: string, s: ProjectSocket): void {
  if (--s.users > 0) return;
  s.presence?.destroy();
  s.socket.destroy();
  sockets.delete(projectId);
}

/** Puts the shared text into a view that was created with other text, without echoing it back. */
const adoptSharedText = (ytext: Y.Text) => ViewPlugin.define((view) => {
  void Promise.resolve().then(() => {
    const text = ytext.toString();
    if (view.state.doc.toString() === text) return;
    view.dispatch({
      changes: { from: 0, to: view.state.doc.length, insert: text },
      annotations: [ySyncAnnotation.of(view.state.facet(ySyncFacet)), Transaction.addToHistory.of(false)],
    });
  });
  return {};
});

/**
 * Colours of other people's cursors under the dashboard's Content-Security-Policy: yCollab draws
 * them with inline style attributes, which `style-src 'self'` blocks, so each caret is painted
 * through the CSSOM (allowed) with its person's colour, found by the name it shows; selections get
 * one highlight from the theme.
 */
const paintRemoteCarets = (awareness: HocuspocusProvider['awareness']) => [
  EditorView.baseTheme({
    '.cm-ySelection': { backgroundColor: 'rgba(48, 99, 142, 0.22)' },
    '.cm-yLineSelection': { backgroundColor: 'rgba(48, 99, 142, 0.22)' },
    '.cm-ySelectionInfo': { fontFamily: 'inherit' },
  }),
  ViewPlugin.define((view) => {
    const paint = () => {
      const colours = new Map<string, string>();
      for (const state of awareness?.getStates().values() ?? []) {
        const who = state.user as { name?: string; color?: string } | undefined;
        if (who?.name && who.color && /^#[0-9a-f]{3,8}$/i.test(who.color)) colours.set(who.name, who.color);
      }
      for (const caret of view.contentDOM.querySelectorAll<HTMLElement>('.cm-ySelectionCaret')) {
        const colour = colours.get(caret.querySelector('.cm-ySelectionInfo')?.textContent ?? '') ?? COLOURS[3]!;
        caret.style.backgroundColor = colour;
        caret.style.borderColor = colour;
      }
    };
    const schedule = () => view.requestMeasure({ key: paint, read: () => null, write: paint });
    schedule();
    return { update: schedule };
  }),
];

/** The reason a refusal carries: the dashboard's error body when it is one. */
function refusalMessage(reason: string): string {
  try {
    const body = JSON.parse(reason) as { message?: string };
    if (body.message) return body.message;
  } catch { /* a plain reason */ }
  return reason || 'The collaboration server refused this file';
}

/** Connects `path` of `projectId` for `user` (see the module comment). */
export function collabExtension({ projectId, path, user }: { projectId: string; path: string; user: CollabUser }): Promise<CollabSession> {
  const s = projectSocket(projectId);
  s.user = user;
  const doc = new Y.Doc();
  const ytext = doc.getText(TEXT_KEY);
  const listeners: ((status: { readOnly: boolean; editingBy: string[] }) => void)[] = [];
  const editable = new Compartment();
  let status: { readOnly: boolean; editingBy: string[] } | undefined;
  let destroyed = false;
  const provider = new HocuspocusProvider({ websocketProvider: s.socket, name: path, document: doc, token: 'session' });
  provider.setAwarenessField('user', { id: user.id, name: user.name || user.email, ...colourOf(user.id) });
  const undoManager = new Y.UndoManager(ytext);
  let view: EditorView | undefined;
  const rememberView = ViewPlugin.define((v) => { view = v; return { destroy() { if (view === v) view = undefined; } }; });

  const session: CollabSession = {
    extension: [
      yCollab(ytext, provider.awareness, { undoManager }),
      paintRemoteCarets(provider.awareness),
      adoptSharedText(ytext),
      rememberView,
      editable.of([]),
    ],
    readOnly: false,
    editingBy: [],
    onStatus(listener) { listeners.push(listener); },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      provider.destroy();
      const open = (s.open.get(path) ?? 1) - 1;
      if (open > 0) s.open.set(path, open); else s.open.delete(path);
      tellPresence(s);
      release(projectId, s);
    },
  };

  const applyStatus = (next: { readOnly: boolean; editingBy: string[] }) => {
    status = next;
    session.readOnly = next.readOnly;
    session.editingBy = next.editingBy;
    view?.dispatch({ effects: editable.reconfigure(next.readOnly ? [EditorState.readOnly.of(true), EditorView.editable.of(false)] : []) });
    for (const l of listeners) l(next);
  };

  return new Promise<CollabSession>((resolve, reject) => {
    let authenticated = false;
    const timer = setTimeout(() => { session.destroy(); reject(new Error('The collaboration server did not answer')); }, 15_000);
    const maybeReady = () => {
      if (!authenticated || !provider.isSynced || !status) return;
      clearTimeout(timer);
      s.open.set(path, (s.open.get(path) ?? 0) + 1);
      tellPresence(s);
      resolve(session);
    };
    provider.on('authenticated', ({ scope }: { scope: string }) => {
      authenticated = true;
      if (!status && scope !== 'read-write') status = { readOnly: true, editingBy: [] };
      maybeReady();
    });
    provider.on('authenticationFailed', ({ reason }: { reason: string }) => {
      clearTimeout(timer);
      session.destroy();
      reject(new Error(refusalMessage(reason)));
    });
    provider.on('synced', maybeReady);
    provider.on('stateless', ({ payload }: { payload: string }) => {
      let msg: { type?: string; readOnly?: boolean; editingBy?: string[] };
      try { msg = JSON.parse(payload); } catch { return; }
      if (msg.type !== 'status') return;
      applyStatus({ readOnly: !!msg.readOnly, editingBy: msg.editingBy ?? [] });
      maybeReady();
    });
    provider.attach();
  });
}

/**
 * Who has which file of the project open now, other people only: `{ [path]: names }`, updated
 * live from the presence channel (for the file tree). Opening the channel needs the same access
 * as editing (content.edit); without it the answer stays empty.
 */
export function useEditingNow(projectId: string, me?: { id: string }): Record<string, string[]> {
  const [editing, setEditing] = useState<Record<string, string[]>>({});
  useEffect(() => {
    const s = projectSocket(projectId);
    const presence = presenceOf(s);
    const awareness = presence.awareness!;
    const read = () => {
      const byPath: Record<string, Map<string, string>> = {};
      for (const [clientId, state] of awareness.getStates()) {
        if (clientId === awareness.clientID) continue;
        const who = state.user as { id?: string; name?: string } | undefined;
        if (!who?.id || who.id === me?.id) continue;
        for (const p of (state.paths as string[] | undefined) ?? []) (byPath[p] ??= new Map()).set(who.id, who.name ?? 'Someone');
      }
      setEditing(Object.fromEntries(Object.entries(byPath).map(([p, names]) => [p, [...names.values()]])));
    };
    awareness.on('change', read);
    read();
    return () => {
      awareness.off('change', read);
      release(projectId, s);
    };
  }, [projectId, me?.id]);
  return editing;
}
