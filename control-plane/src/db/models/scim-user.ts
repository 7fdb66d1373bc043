import { Schema, type InferSchemaType } from 'mongoose';

/**
 * What an identity provider provisioned over SCIM for one member of one organization. `_id` is
 * the SCIM resource id (random, stable); `user_id` is the dashboard account it provisions.
 * `user_name_lower` is unique per organization, so two concurrent creates of one userName give
 * one user and a 409. `version` grows with every change (the ETag).
 */
export const scimUserSchema = new Schema({
  _id: { type: String, required: true },
  org_id: { type: String, required: true },
  user_id: { type: String, required: true },
  user_name: { type: String, required: true },
  user_name_lower: { type: String, required: true },
  external_id: { type: String, default: null },
  display_name: { type: String, default: null },
  name: { type: Schema.Types.Mixed, default: null },
  emails: { type: Schema.Types.Mixed, default: [] },
  active: { type: Boolean, default: true },
  version: { type: Number, default: 1 },
  created_at: { type: Date, required: true },
  updated_at: { type: Date, required: true },
}, { versionKey: false });
scimUserSchema.index({ org_id: 1, user_name_lower: 1 }, { unique: true });
scimUserSchema.index({ org_id: 1, user_id: 1 }, { unique: true });

export type ScimUser = InferSchemaType<typeof scimUserSchema> & { _id: string };
