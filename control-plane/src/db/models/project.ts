import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

export const PROJECT_STATUSES = ['pending', 'building', 'active', 'failed'] as const;

/** A docs site (spec 2.1). Projects without `github_repo` use a repository the platform manages. */
export const projectSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  org_id: { type: String, required: true, index: true },
  name: { type: String, required: true },
  slug: { type: String, required: true, unique: true },
  status: { type: String, enum: PROJECT_STATUSES, default: 'pending' },
  created_at: { type: Date, default: () => new Date() },
  /** Own GitHub repository as GitHub spells it (`owner/name`); null: the platform hosts the repository. */
  github_repo: { type: String, default: null },
  /**
   * GitHub's numeric ids of that repository and of the App installation of the project's
   * organization that may read it (github/resolve-repo.ts). Builds clone with a token scoped to
   * both; pushes are matched by both. Null on rows connected before installations existed:
   * those fail their deployments until the repository is connected again.
   */
  github_repo_id: { type: Number, default: null },
  github_installation_id: { type: Number, default: null },
  github_branch: { type: String, default: 'main' },
  custom_domain: { type: String, default: null, index: true },
  last_deploy_at: { type: Date, default: null },
  logo: { type: { light: String, dark: String, _id: false }, default: null },
  /**
   * Site password (sites/site-password.ts): `scrypt$<salt>$<hash>`, never the password. Null when
   * the site is public. `site_password_set_at` also versions the visitors' cookies: a new
   * password signs everyone out.
   */
  site_password_hash: { type: String, default: null },
  site_password_set_at: { type: Date, default: null },
  /**
   * Reader authentication (sites/reader-auth/): how readers sign in (`oidc` or `jwt`), what is
   * protected (`full`: every page; `partial`: all but `public` pages), and the provider's
   * settings; secrets sealed (secrets/secret-box.ts), never returned. Null: off. `set_at`
   * versions the readers' sessions: a change signs everyone out.
   */
  reader_auth: {
    type: {
      mode: String, scope: String, set_at: Date,
      issuer: String, client_id: String, client_secret_sealed: String, scopes: String, groups_claim: String,
      algorithm: String, verification_key_sealed: String, jwks_url: String, login_url: String, audience: String, token_issuer: String,
      _id: false,
    },
    default: null,
  },
  /** Derives the prefixes of the site's audiences (builder access/audiences.ts); made once, kept when reader authentication is switched off and on. */
  reader_access_secret: { type: String, default: null },
}, { versionKey: false });
projectSchema.index({ org_id: 1, created_at: -1 });
projectSchema.index({ github_installation_id: 1, github_repo_id: 1 });

export type Project = InferSchemaType<typeof projectSchema> & { _id: string };
