/**
 * A preview process (started by preview-launch.ts): one project's draft preview, so the pages'
 * compile, the site template and the build's memory live outside the control plane's process.
 * Its pages compile in sandbox processes below it, as a build's do. It ends when its parent
 * disconnects, and its sandboxes with it (the parent kills the process group).
 *
 * In (IPC): `open` once, then `update` and `drafts`, maybe `close`.
 * Out: `opened`, `ready`, `result`/`failed` per update, `event` per dev event, `error`.
 */
import { openDraftPreview, type DraftPreview, type DraftPreviewOptions, type PreviewUpdate } from './draft-preview.ts';
import type { DevEvent } from '../dev/dev-session.ts';

/** What the parent sends. */
export type ToPreview =
  | { type: 'open'; options: Omit<DraftPreviewOptions, 'compiler' | 'log'> }
  | { type: 'update'; id: number; path: string; content: string | null }
  | { type: 'drafts'; drafts: Array<[string, string | Uint8Array | null | undefined]> }
  | { type: 'close' };

/** What the preview process sends. */
export type FromPreview =
  | { type: 'opened' }
  | { type: 'ready' }
  | { type: 'result'; id: number; result: PreviewUpdate }
  | { type: 'failed'; id: number; message: string }
  | { type: 'event'; event: DevEvent }
  | { type: 'error'; message: string };

const send = (msg: FromPreview) => { if (process.connected) process.send!(msg); };
let preview: Promise<DraftPreview> | undefined;

const stop = async () => {
  const p = await preview?.catch(() => undefined);
  await p?.close().catch(() => undefined);
  process.exit(0);
};

process.on('disconnect', () => void stop());
process.on('message', (msg: ToPreview) => {
  if (msg.type === 'open') {
    if (preview) return;
    preview = openDraftPreview({ ...msg.options, log: (line) => console.error(line) });
    preview.then((p) => {
      send({ type: 'opened' });
      p.session.subscribe((event) => send({ type: 'event', event }));
      void p.ready.then(() => send({ type: 'ready' }));
    }, (err: unknown) => {
      send({ type: 'error', message: (err as Error).message });
      process.exit(1);
    });
    return;
  }
  if (msg.type === 'close') { void stop(); return; }
  if (!preview) return;
  if (msg.type === 'update') {
    void preview.then((p) => p.update(msg.path, msg.content)).then(
      (result) => send({ type: 'result', id: msg.id, result }),
      (err: unknown) => send({ type: 'failed', id: msg.id, message: (err as Error).message }),
    );
  } else if (msg.type === 'drafts') {
    void preview.then((p) => p.setDrafts(msg.drafts), () => undefined);
  }
});
