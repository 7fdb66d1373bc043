/**
 * Pasting or dropping an image stores it through `POST /assets` (base64 JSON; the platform's
 * asset rules decide the type, sanitising and size) and inserts `![alt](url)` where it was
 * dropped or at the cursor when pasted. The place is kept while the upload runs, mapped through
 * any typing meanwhile. A refusal (not an image, too large, a type the platform does not take)
 * is shown in a panel under the editor with the server's message, until dismissed or the next
 * upload succeeds.
 */
import { StateEffect, StateField, type Extension } from '@codemirror/state';
import { EditorView, showPanel, type Panel } from '@codemirror/view';
import type { ExtensionsApi } from './api.ts';
import { assetName } from './asset-name.ts';

/** Where pending uploads go, by id; positions follow the document's changes. */
const addPending = StateEffect.define<{ id: number; pos: number }>();
const donePending = StateEffect.define<number>();
const pending = StateField.define<Map<number, number>>({
  create: () => new Map(),
  update(value, tr) {
    let next = value;
    if (tr.docChanged && value.size) next = new Map([...value].map(([id, pos]) => [id, tr.changes.mapPos(pos, 1)]));
    for (const e of tr.effects) {
      if (e.is(addPending)) next = new Map(next).set(e.value.id, e.value.pos);
      else if (e.is(donePending)) {
        next = new Map(next);
        next.delete(e.value);
      }
    }
    return next;
  },
});

/** The message shown under the editor (null: none). */
export const setUploadMessage = StateEffect.define<string | null>();
const message = StateField.define<string | null>({
  create: () => null,
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setUploadMessage)) value = e.value;
    return value;
  },
  provide: (field) => showPanel.from(field, (text) => (text ? (view) => uploadPanel(view, text) : null)),
});

function uploadPanel(view: EditorView, text: string): Panel {
  const dom = document.createElement('div');
  dom.className = 'cm-upload-message';
  dom.setAttribute('role', 'alert');
  const p = document.createElement('span');
  p.textContent = text;
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Dismiss';
  close.addEventListener('click', () => view.dispatch({ effects: setUploadMessage.of(null) }));
  dom.append(p, ' ', close);
  return { dom, top: false };
}

/** The file's bytes as base64. */
async function base64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Alt text from a file name: `my-screenshot_2.png` → `my screenshot 2`. */
export function altText(name: string): string {
  return name.replace(/\.[^.]+$/, '').replace(/[-_]+/g, ' ').replace(/[[\]]/g, '').trim() || 'image';
}

let nextId = 1;


/** Uploads `files` (images only) and inserts each reference at `pos`, in order. */
async function upload(view: EditorView, api: ExtensionsApi, files: File[], pos: number): Promise<void> {
  for (const file of files) {
    if (!file.type.startsWith('image/')) {
      view.dispatch({ effects: setUploadMessage.of(`${file.name || 'This file'} is not an image (${file.type || 'unknown type'}); only images can be pasted or dropped into a page.`) });
      continue;
    }
    const id = nextId++;
    view.dispatch({ effects: addPending.of({ id, pos }) });
    try {
      const stored = await api.uploadAsset({ name: assetName(file), content_base64: await base64(file) });
      const at = view.state.field(pending).get(id) ?? pos;
      const insert = `![${altText(file.name || 'image')}](${stored.url})`;
      view.dispatch({
        changes: { from: at, insert },
        selection: { anchor: at + insert.length },
        effects: [donePending.of(id), setUploadMessage.of(null)],
        userEvent: 'input.drop',
      });
      pos = at + insert.length;
    } catch (err) {
      view.dispatch({ effects: [donePending.of(id), setUploadMessage.of(`${file.name || 'The image'} was not stored: ${err instanceof Error ? err.message : String(err)}`)] });
    }
  }
}

/** The paste and drop handlers with their pending-upload and message state. */
export function imageUpload(api: ExtensionsApi): Extension {
  return [
    pending,
    message,
    EditorView.domEventHandlers({
      drop(event, view) {
        const files = [...(event.dataTransfer?.files ?? [])];
        if (!files.length) return false;
        event.preventDefault();
        const pos = view.posAtCoords({ x: event.clientX, y: event.clientY }) ?? view.state.selection.main.head;
        void upload(view, api, files, pos);
        return true;
      },
      paste(event, view) {
        const files = [...(event.clipboardData?.files ?? [])];
        if (!files.length) return false;
        event.preventDefault();
        void upload(view, api, files, view.state.selection.main.head);
        return true;
      },
    }),
    EditorView.baseTheme({
      '.cm-upload-message': { padding: '6px 10px', background: '#fdecea', color: '#611a15', fontFamily: 'system-ui, sans-serif', fontSize: '14px' },
      '.cm-upload-message button': { marginLeft: '8px' },
    }),
  ];
}
