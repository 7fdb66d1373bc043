import { Schema, Types, type InferSchemaType } from 'mongoose';

export const EDITOR_DRAFT_KINDS = ['text', 'binary'] as const;

/**
 * One file of a project's shared draft workspace (editor/drafts.ts): the text (or base64 bytes)
 * a member saved in the web editor and the commit it started from, until publishing turns the
 * project's drafts into one commit or someone discards it. `content: null` is a deletion; a
 * moved file is a deletion draft at its old path plus a draft with `renamed_from` at the new.
 */
export const editorDraftSchema = new Schema({
  _id: { type: Schema.Types.ObjectId, default: () => new Types.ObjectId() },
  project_id: { type: String, required: true },
  /** Repository path, '/'-separated, no leading '/', normalised (editor/paths.ts). */
  path: { type: String, required: true },
  kind: { type: String, enum: EDITOR_DRAFT_KINDS, required: true },
  /** Text: the whole file; binary: base64; null: the file is deleted. */
  content: { type: String, default: null },
  /** The commit of the production branch the draft started from (null: no commit yet). */
  base_commit: { type: String, default: null },
  /** Git blob id of the file at `base_commit` (null: the file is new). */
  base_blob: { type: String, default: null },
  /** The path this draft moved from; that path has its own deletion draft. */
  renamed_from: { type: String, default: null },
  created_by: { type: String, required: true },
  updated_by: { type: String, required: true },
  created_at: { type: Date, required: true },
  updated_at: { type: Date, required: true },
  /** +1 on every save; a save may name the revision it edited for an optimistic check. */
  revision: { type: Number, required: true, default: 1 },
}, { versionKey: false });
editorDraftSchema.index({ project_id: 1, path: 1 }, { unique: true });
editorDraftSchema.index({ project_id: 1, updated_at: 1 });

export type EditorDraft = InferSchemaType<typeof editorDraftSchema>;
