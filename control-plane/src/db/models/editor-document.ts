import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

/**
 * The shared (Yjs) document of one file in the web editor while people edit it together
 * (editor/collab/). `state` is a Yjs update holding the whole document as of the last
 * compaction; `updates` are the edits acknowledged since, each written before the server applies
 * and acknowledges it, so a crash loses nothing it acknowledged. Loading applies `state` and
 * then every update (applying one twice is harmless in Yjs).
 */
export const editorDocumentSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  project_id: { type: String, required: true },
  /** The file's repository path (the Hocuspocus document name). */
  path: { type: String, required: true },
  state: { type: Buffer, required: true },
  updates: { type: [{ _id: false, seq: { type: Number, required: true }, data: { type: Buffer, required: true } }], default: [] },
  /** The draft revision the text was last mirrored into (null: never); a different revision on load means the draft moved without us. */
  draft_revision: { type: Number, default: null },
  /** Who last changed the text through the socket (the draft is saved in their name). */
  updated_by: { type: String, default: null },
  /** The control-plane process serving the document (one at a time) and until when its claim holds. */
  lease_owner: { type: String, default: null },
  lease_until: { type: Date, default: null },
  created_at: { type: Date, default: () => new Date() },
  updated_at: { type: Date, default: () => new Date() },
}, { versionKey: false });
editorDocumentSchema.index({ project_id: 1, path: 1 }, { unique: true });

export type EditorDocument = InferSchemaType<typeof editorDocumentSchema> & { _id: string };
