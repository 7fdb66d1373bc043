import { Schema, type InferSchemaType } from 'mongoose';

/**
 * An installation of the platform's GitHub App, linked to the one organization whose member
 * proved (through GitHub's OAuth) that they can see it (github/link-installation.ts). `_id` is
 * GitHub's installation id, so an installation belongs to at most one organization. Projects of
 * that organization may connect the repositories it covers; builds clone with tokens minted for
 * it, scoped to one repository.
 */
export const githubInstallationSchema = new Schema({
  _id: { type: Number, required: true },
  org_id: { type: String, required: true, index: true },
  /** The GitHub user or organization the App is installed on. */
  account_login: { type: String, required: true },
  account_id: { type: Number, required: true },
  /** Folio user who linked it. */
  linked_by: { type: String, default: null },
  /** Set while GitHub reports the installation suspended: its projects do not build. */
  suspended_at: { type: Date, default: null },
  created_at: { type: Date, default: () => new Date() },
}, { versionKey: false });

export type GithubInstallation = InferSchemaType<typeof githubInstallationSchema> & { _id: number };
