import { Schema, type InferSchemaType } from 'mongoose';

/**
 * A SCIM group of an organization. `members` are SCIM user ids. `role` (a built-in role other
 * than owner, or `custom:<id>`) is set in the dashboard by someone with `roles.manage`, never
 * over SCIM: every member of the group holds that role's permissions on top of their own.
 */
export const scimGroupSchema = new Schema({
  _id: { type: String, required: true },
  org_id: { type: String, required: true },
  display_name: { type: String, required: true },
  display_name_lower: { type: String, required: true },
  external_id: { type: String, default: null },
  members: { type: [String], default: [] },
  role: { type: String, default: null },
  version: { type: Number, default: 1 },
  created_at: { type: Date, required: true },
  updated_at: { type: Date, required: true },
}, { versionKey: false });
scimGroupSchema.index({ org_id: 1, display_name_lower: 1 }, { unique: true });
scimGroupSchema.index({ org_id: 1, members: 1 });

export type ScimGroup = InferSchemaType<typeof scimGroupSchema> & { _id: string };
