/**
 * Opening one file in the editor: its text from the server, reconciled with text kept in this
 * browser that never reached the server (restored when it was typed on the draft the server
 * still has, or when the writer was the last to save it; otherwise the server's text is shown
 * and the kept text offered back), and the CodeMirror state it is edited in.
 */
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import type { FileBody } from './api.ts';
import { baseExtensions, fallbackExtensions, isJson } from './basic-setup.ts';
import { editable, readOnlyExtension } from './editor-view.tsx';
import { clearLocal, readLocal } from './local-copy.ts';
import type { ExtensionsModule } from './optional.ts';
import type { EditorApi } from './api.ts';

export interface Reconciled {
  /** The text to show. */
  text: string;
  /** Text kept in this browser that was put back (it is saved at once). */
  restored: boolean;
  /** Text kept in this browser that the server's newer text replaced (offered back to the writer). */
  kept?: string;
}

export function reconcile(projectId: string, userId: string, file: FileBody): Reconciled {
  const server = file.content ?? '';
  const local = readLocal(projectId, file.path);
  if (!local || local.content === server) {
    if (local) clearLocal(projectId, file.path);
    return { text: server, restored: false };
  }
  if (file.content === null && file.draft) return { text: server, restored: false, kept: local.content };
  const sameBase = (local.revision ?? null) === (file.draft?.revision ?? null);
  const mine = file.draft?.updated_by?.id === userId;
  if (sameBase || mine) return { text: local.content, restored: true };
  return { text: server, restored: false, kept: local.content };
}

export function createState(o: {
  path: string;
  text: string;
  readOnly: boolean;
  api: EditorApi;
  onSave(): void;
  mods?: ExtensionsModule;
  extra?: Extension[];
}): EditorState {
  const language = o.mods
    ? isJson(o.path) ? o.mods.docsJsonExtensions({ projectId: o.api.projectId, api: o.api }) : o.mods.mdxExtensions({ projectId: o.api.projectId, api: o.api, onSave: o.onSave, path: o.path })
    : fallbackExtensions(o.path);
  return EditorState.create({
    doc: o.text,
    extensions: [
      editable.of(readOnlyExtension(o.readOnly)),
      baseExtensions(o.onSave),
      language,
      EditorView.contentAttributes.of({ 'aria-label': `Text of ${o.path}` }),
      ...(o.extra ?? []),
    ],
  });
}
