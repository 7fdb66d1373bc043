import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

/** A page written by a deployment, served by the pages API (spec 2.3). */
export const pageSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  project_id: { type: String, required: true },
  path: { type: String, required: true },
  title: { type: String, default: '' },
  description: { type: String, default: '' },
  version: { type: String, default: 'latest' },
  source_mdx: { type: String, default: '' },
  compiled_html: { type: String, default: '' },
  search_text: { type: String, default: '' },
  updated_at: { type: Date, default: () => new Date() },
}, { versionKey: false });
pageSchema.index({ project_id: 1, version: 1, path: 1 }, { unique: true });

export type Page = InferSchemaType<typeof pageSchema> & { _id: string };
