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
// Candidates for page search; ranking and the web-search syntax are applied in pages/search.ts.
pageSchema.index({ title: 'text', description: 'text', search_text: 'text' }, { weights: { title: 10, description: 4, search_text: 1 }, name: 'page_text' });

export type Page = InferSchemaType<typeof pageSchema> & { _id: string };
