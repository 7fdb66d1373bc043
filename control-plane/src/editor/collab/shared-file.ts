/**
 * One file's shared Yjs document in the database (`editor_documents`) and in the draft:
 *
 * - load: the stored state plus every logged update; a document never stored starts from the
 *   draft's text, else the file at the production branch head, else empty. When the draft moved
 *   while nobody had the document open (a save through `PUT /file`, a publish, a discard), the
 *   draft (or the head's file) wins and is applied to the document as an edit.
 * - log: every update a writer sends is appended before the server applies and acknowledges it
 *   (collab-server.ts calls {@link SharedFile.log} from `beforeHandleMessage`), so a crash loses
 *   nothing the server acknowledged.
 * - compact and mirror (debounced by Hocuspocus, and on close): the whole state is written and the
 *   logged updates it contains are dropped; the text is saved as the draft with `saveDraft` when it
 *   differs, in the name of the last person who changed it.
 * - reset: when a draft changes or goes away without us (`onDraftChange`), the document takes the
 *   new text as one edit, so every open editor follows.
 *
 * The text lives in the Y.Text named {@link TEXT_KEY}; the browser binds the same one.
 */
import * as Y from 'yjs';
import type { Deps } from '../../http/route.ts';
import { getDraft, saveDraft, type DraftView } from '../drafts.ts';
import { headCommit, readRepoFile } from '../repo-files.ts';

export const TEXT_KEY = 'content';
/** Texts above this are not mirrored into the draft (the draft routes' own limit). */
export const MAX_TEXT_BYTES = 1024 * 1024;
/** Transaction origin of changes the server makes itself (load, reset): never logged as a client's. */
export const SERVER_ORIGIN = 'folio-server';

/** The bytes of a stored binary field (a lean read gives BSON Binary, not Buffer). */
function bytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  const binary = value as { buffer?: unknown; position?: number } | null;
  if (binary?.buffer instanceof Uint8Array) return binary.buffer.subarray(0, binary.position ?? binary.buffer.length);
  return new Uint8Array();
}

/** Replaces the text of `doc` by `text` as one minimal edit (common prefix and suffix kept). */
export function applyText(doc: Y.Doc, text: string): boolean {
  const ytext = doc.getText(TEXT_KEY);
  const current = ytext.toString();
  if (current === text) return false;
  let start = 0;
  while (start < current.length && start < text.length && current[start] === text[start]) start++;
  let endCur = current.length;
  let endNew = text.length;
  while (endCur > start && endNew > start && current[endCur - 1] === text[endNew - 1]) { endCur--; endNew--; }
  doc.transact(() => {
    if (endCur > start) ytext.delete(start, endCur - start);
    if (endNew > start) ytext.insert(start, text.slice(start, endNew));
  }, SERVER_ORIGIN);
  return true;
}

/** The text the editor shows for a path when the document has no say: the draft, else the head's file. */
async function publishedOrDraftText(deps: Deps, projectId: string, path: string, draft: DraftView | undefined): Promise<string> {
  if (draft) return draft.kind === 'text' ? draft.content ?? '' : '';
  const head = await headCommit(deps, projectId);
  const file = head ? await readRepoFile(deps, projectId, head, path) : undefined;
  return file ? file.toString('utf8') : '';
}

export class SharedFile {
  private seq = 0;
  /** Logged updates not yet dropped by a compaction. */
  private logged: { seq: number; data: Uint8Array }[] = [];
  /** The text last saved as the draft (or found in it), and the one being saved now. */
  private mirrored: string | null = null;
  private saving: string | null = null;
  private draftRevision: number | null = null;
  /** Who last changed the text through the socket. */
  lastEditor: string | null = null;
  /** Serialises compaction, mirroring and resets of this file. */
  private chain: Promise<unknown> = Promise.resolve();

  private readonly deps: Deps;
  readonly projectId: string;
  readonly path: string;
  readonly doc: Y.Doc;

  constructor(deps: Deps, projectId: string, path: string, doc: Y.Doc) {
    this.deps = deps;
    this.projectId = projectId;
    this.path = path;
    this.doc = doc;
  }

  private filter() { return { project_id: this.projectId, path: this.path }; }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Fills `doc` from the database, the draft or the repository (see the module comment). */
  async load(): Promise<void> {
    const { deps } = this;
    const rec = await deps.m.EditorDocument.findOne(this.filter()).lean();
    const draft = await getDraft(deps, this.projectId, this.path);
    const state = bytes(rec?.state);
    const stored = state.length > 0;
    if (rec && stored) {
      Y.applyUpdate(this.doc, state, SERVER_ORIGIN);
      for (const u of rec.updates ?? []) {
        const data = bytes(u.data);
        Y.applyUpdate(this.doc, data, SERVER_ORIGIN);
        this.logged.push({ seq: u.seq, data });
        this.seq = Math.max(this.seq, u.seq);
      }
      this.lastEditor = rec.updated_by ?? null;
    }
    const text = this.doc.getText(TEXT_KEY).toString();
    const draftKnown = rec?.draft_revision ?? null;
    // The document's own text wins only when the draft did not move since it was last mirrored.
    const documentWins = stored && (draft ? draft.revision === draftKnown : draftKnown === null);
    let recovered = false;
    if (documentWins) {
      this.draftRevision = draft?.revision ?? null;
      const expected = await publishedOrDraftText(deps, this.projectId, this.path, draft);
      // Edits acknowledged before a crash and not yet in the draft: mirrored once loaded.
      recovered = text !== expected;
      this.mirrored = recovered ? null : text;
    } else {
      applyText(this.doc, await publishedOrDraftText(deps, this.projectId, this.path, draft));
      this.draftRevision = draft?.revision ?? null;
      this.mirrored = this.doc.getText(TEXT_KEY).toString();
    }
    await this.writeState();
    if (recovered) void this.store().catch(() => undefined);
  }

  /** Appends one update `userId` sent to the log; resolves once it is stored. */
  log(data: Uint8Array, userId: string): Promise<void> {
    const seq = ++this.seq;
    this.lastEditor = userId;
    this.logged.push({ seq, data });
    return this.deps.m.EditorDocument.updateOne(this.filter(), { $push: { updates: { seq, data: Buffer.from(data) } }, $set: { updated_at: this.deps.now(), updated_by: userId } }).then(() => undefined);
  }

  /** Writes the whole state and drops the logged updates it contains. */
  private async writeState(): Promise<void> {
    const state = Buffer.from(Y.encodeStateAsUpdate(this.doc));
    const snapshot = Y.snapshot(this.doc);
    const contained = this.logged.filter((u) => Y.snapshotContainsUpdate(snapshot, u.data)).map((u) => u.seq);
    const set = { state, updated_at: this.deps.now(), draft_revision: this.draftRevision, updated_by: this.lastEditor };
    await this.deps.m.EditorDocument.updateOne(this.filter(), { $set: set, $setOnInsert: { created_at: this.deps.now() } }, { upsert: true });
    if (contained.length > 0) {
      await this.deps.m.EditorDocument.updateOne(this.filter(), { $pull: { updates: { seq: { $in: contained } } } });
      const gone = new Set(contained);
      this.logged = this.logged.filter((u) => !gone.has(u.seq));
    }
  }

  /** Stores the state and saves the text as the draft when it changed (Hocuspocus's debounced store, and close). */
  store(): Promise<void> {
    return this.serial(async () => {
      await this.writeState();
      await this.mirror();
    });
  }

  private async mirror(): Promise<void> {
    const { deps } = this;
    const text = this.doc.getText(TEXT_KEY).toString();
    if (text === this.mirrored) return;
    const draft = await getDraft(deps, this.projectId, this.path);
    if (draft && draft.content === text) { this.mirrored = text; this.draftRevision = draft.revision; return; }
    if (!draft && text === await publishedOrDraftText(deps, this.projectId, this.path, undefined)) { this.mirrored = text; return; }
    if (Buffer.byteLength(text) > MAX_TEXT_BYTES || !this.lastEditor) return;
    this.saving = text;
    try {
      const saved = await saveDraft(deps, this.projectId, this.lastEditor, { path: this.path, content: text, kind: 'text' });
      this.mirrored = text;
      this.draftRevision = saved.revision;
    } finally {
      this.saving = null;
    }
    await deps.m.EditorDocument.updateOne(this.filter(), { $set: { draft_revision: this.draftRevision } });
  }

  /**
   * The draft of this path changed or went away (a save through `PUT /file`, a publish, a
   * discard): the document takes its text, unless the change is our own save.
   */
  draftChanged(): Promise<void> {
    return this.serial(async () => {
      const draft = await getDraft(this.deps, this.projectId, this.path);
      if (draft && (draft.content === this.saving || draft.content === this.mirrored)) { this.draftRevision = draft.revision; return; }
      const text = await publishedOrDraftText(this.deps, this.projectId, this.path, draft);
      this.draftRevision = draft?.revision ?? null;
      applyText(this.doc, text);
      this.mirrored = text;
      await this.writeState();
    });
  }
}
