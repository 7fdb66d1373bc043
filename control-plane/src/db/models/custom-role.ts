import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

/**
 * An organization's custom role (enterprise plan): a named set of permissions (roles/roles.ts).
 * Members and SCIM groups refer to it as `custom:<_id>`. `name_lower` makes names unique per
 * organization whatever their case.
 */
export const customRoleSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  org_id: { type: String, required: true },
  name: { type: String, required: true },
  name_lower: { type: String, required: true },
  description: { type: String, default: '' },
  permissions: { type: [String], default: [] },
  created_by: { type: String, required: true },
  created_at: { type: Date, required: true },
  updated_at: { type: Date, required: true },
}, { versionKey: false });
customRoleSchema.index({ org_id: 1, name_lower: 1 }, { unique: true });

export type CustomRole = InferSchemaType<typeof customRoleSchema> & { _id: string };
