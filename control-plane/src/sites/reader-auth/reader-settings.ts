/**
 * Reader authentication settings (dashboard `GET/PUT/DELETE /projects/{id}/reader-auth`): how a
 * site's readers sign in (`oidc`: the customer's OpenID provider; `jwt`: a token the customer's
 * own app signs and hands over), what is protected (`full` or `partial`), and the provider's
 * settings. Changing them needs `auth_gated_pages` (pro) from the entitlement resolver; after a
 * downgrade the gate keeps working and the settings are read-only (402 `plan_required`). Secrets
 * (the client secret, a shared HS256 key) are sealed and never returned; a PUT without them keeps
 * the stored ones. A site password and reader authentication exclude each other (409).
 */
import { randomBytes } from 'node:crypto';
import { importSPKI } from 'jose';
import { z } from 'zod';
import type { Models } from '../../db/models/index.ts';
import { hasFeature, requireFeature } from '../../entitlements/resolver.ts';
import { conflict, invalid } from '../../errors.ts';
import { sealSecret } from '../../secrets/secret-box.ts';

/** Secret-box purposes of the sealed settings. */
export const READER_CLIENT_SECRET = 'reader-oidc-client-secret';
export const READER_JWT_KEY = 'reader-jwt-verification-key';

const url = (what: string) => z.string().max(2000).refine((v) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}, { error: `must be an absolute http or https URL of the ${what}` });
const claim = z.string().regex(/^[A-Za-z0-9_.:/-]{1,100}$/, { error: 'must be a claim name such as groups or https://example.com/roles' });

/** Body of `PUT /projects/{id}/reader-auth`. */
export const readerAuthBody = z.strictObject({
  mode: z.enum(['oidc', 'jwt'], { error: 'must be oidc or jwt' }),
  scope: z.enum(['full', 'partial'], { error: 'must be full (every page) or partial (all but public pages)' }).default('partial'),
  issuer: url('OpenID provider').optional(),
  client_id: z.string().min(1, { error: 'must not be empty' }).max(300).optional(),
  client_secret: z.string().min(1, { error: 'must not be empty' }).max(2000).optional(),
  scopes: z.string().regex(/^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/, { error: 'must be scope names separated by spaces' }).max(500).optional(),
  groups_claim: claim.optional(),
  algorithm: z.enum(['HS256', 'RS256', 'ES256'], { error: 'must be HS256, RS256 or ES256' }).optional(),
  verification_key: z.string().min(1, { error: 'must not be empty' }).max(10_000).optional(),
  jwks_url: url('key set').optional(),
  login_url: url('sign-in page').optional(),
  audience: z.string().min(1).max(500).optional(),
  token_issuer: z.string().min(1).max(500).optional(),
});
export type ReaderAuthBody = z.infer<typeof readerAuthBody>;

/** What the dashboard shows: never a secret. */
export interface ReaderAuthView {
  enabled: boolean;
  mode: 'oidc' | 'jwt' | null;
  scope: 'full' | 'partial' | null;
  issuer: string | null;
  client_id: string | null;
  client_secret_set: boolean;
  scopes: string | null;
  groups_claim: string | null;
  algorithm: string | null;
  verification_key_set: boolean;
  jwks_url: string | null;
  login_url: string | null;
  audience: string | null;
  token_issuer: string | null;
  /** Where the OpenID provider sends readers back, on the site's host. */
  callback_path: string;
  /** Where the customer's app sends a reader with a token (`?token=…`). */
  handoff_path: string;
  set_at: string | null;
  editable: boolean;
}

export const OIDC_CALLBACK_PATH = '/_folio/auth/callback';
export const JWT_HANDOFF_PATH = '/_folio/auth/jwt';

type Stored = NonNullable<import('../../db/models/project.ts').Project['reader_auth']>;
interface Ctx { m: Models; now: Date; upgradeUrl: string }

export async function readerAuthView(c: Ctx, orgId: string, project: { reader_auth?: Stored | null }): Promise<ReaderAuthView> {
  const s = project.reader_auth;
  return {
    enabled: Boolean(s?.mode), mode: (s?.mode as ReaderAuthView['mode']) ?? null, scope: (s?.scope as ReaderAuthView['scope']) ?? null,
    issuer: s?.issuer ?? null, client_id: s?.client_id ?? null, client_secret_set: Boolean(s?.client_secret_sealed),
    scopes: s?.scopes ?? null, groups_claim: s?.groups_claim ?? null, algorithm: s?.algorithm ?? null,
    verification_key_set: Boolean(s?.verification_key_sealed), jwks_url: s?.jwks_url ?? null, login_url: s?.login_url ?? null,
    audience: s?.audience ?? null, token_issuer: s?.token_issuer ?? null,
    callback_path: OIDC_CALLBACK_PATH, handoff_path: JWT_HANDOFF_PATH,
    set_at: s?.set_at ? new Date(s.set_at).toISOString() : null,
    editable: await hasFeature(c.m, orgId, 'auth_gated_pages', c.now),
  };
}

/** Checks what each mode needs (the stored secret counts when the body leaves it out). */
async function checked(body: ReaderAuthBody, stored: Stored | null | undefined): Promise<void> {
  const keep = stored?.mode === body.mode;
  if (body.mode === 'oidc') {
    if (!body.issuer) throw invalid('issuer', 'is required for sign-in with an OpenID provider');
    if (!body.client_id) throw invalid('client_id', 'is required for sign-in with an OpenID provider');
    if (!body.client_secret && !(keep && stored?.client_secret_sealed)) throw invalid('client_secret', 'is required for sign-in with an OpenID provider');
    for (const key of ['algorithm', 'verification_key', 'jwks_url', 'login_url', 'token_issuer'] as const) {
      if (body[key] !== undefined) throw invalid(key, 'is for sign-in with a token (mode jwt), not with an OpenID provider');
    }
    return;
  }
  if (!body.login_url) throw invalid('login_url', 'is required for sign-in with a token: readers are sent there to sign in');
  for (const key of ['issuer', 'client_id', 'client_secret', 'scopes'] as const) {
    if (body[key] !== undefined) throw invalid(key, 'is for sign-in with an OpenID provider (mode oidc), not with a token');
  }
  const algorithm = body.algorithm ?? 'HS256';
  if (algorithm === 'HS256') {
    if (body.jwks_url) throw invalid('jwks_url', 'is for RS256 or ES256 keys; HS256 uses a shared secret as the verification key');
    if (!body.verification_key && !(keep && stored?.algorithm === 'HS256' && stored.verification_key_sealed)) throw invalid('verification_key', 'is required for HS256: the secret your app signs tokens with');
    if (body.verification_key && Buffer.byteLength(body.verification_key) < 32) throw invalid('verification_key', 'must be at least 32 bytes for HS256');
    return;
  }
  if (body.jwks_url && body.verification_key) throw invalid('verification_key', 'give either a public key or a key set URL, not both');
  if (!body.jwks_url && !body.verification_key && !(keep && stored?.algorithm === algorithm && (stored.verification_key_sealed || stored.jwks_url))) {
    throw invalid('verification_key', `is required for ${algorithm}: your app's public key (PEM) or a key set URL`);
  }
  if (body.verification_key) {
    try {
      await importSPKI(body.verification_key, algorithm);
    } catch {
      throw invalid('verification_key', `must be a PEM public key (-----BEGIN PUBLIC KEY-----) for ${algorithm}`);
    }
  }
}

/** Turns reader authentication on or changes it; every signed-in reader must sign in again. */
export async function setReaderAuth(c: Ctx, orgId: string, projectId: string, body: ReaderAuthBody): Promise<ReaderAuthView> {
  await requireFeature(c.m, orgId, 'auth_gated_pages', c.now, c.upgradeUrl);
  const project = await c.m.Project.findOne({ _id: projectId, org_id: orgId }, { reader_auth: 1, site_password_hash: 1, reader_access_secret: 1 }).lean();
  if (project?.site_password_hash) throw conflict('The site has a password; remove it before readers sign in another way');
  const stored = project?.reader_auth;
  await checked(body, stored);
  const same = stored?.mode === body.mode;
  const next: Stored = {
    mode: body.mode, scope: body.scope, set_at: c.now, groups_claim: body.groups_claim ?? 'groups',
    ...(body.mode === 'oidc'
      ? {
        issuer: body.issuer, client_id: body.client_id, scopes: body.scopes ?? 'openid profile email',
        client_secret_sealed: body.client_secret ? await sealSecret(c.m, READER_CLIENT_SECRET, body.client_secret) : stored!.client_secret_sealed,
      }
      : {
        algorithm: body.algorithm ?? 'HS256', login_url: body.login_url, audience: body.audience, token_issuer: body.token_issuer,
        jwks_url: body.jwks_url,
        verification_key_sealed: body.verification_key
          ? await sealSecret(c.m, READER_JWT_KEY, body.verification_key)
          : body.jwks_url ? undefined : same ? stored?.verification_key_sealed : undefined,
      }),
  };
  const updated = await c.m.Project.findOneAndUpdate(
    { _id: projectId, org_id: orgId },
    { $set: { reader_auth: next, reader_access_secret: project?.reader_access_secret ?? randomBytes(32).toString('base64url') } },
    { returnDocument: 'after' },
  ).lean();
  return readerAuthView(c, orgId, updated ?? {});
}

/** Turns reader authentication off (the next deployment publishes the pages without groups again). */
export async function removeReaderAuth(c: Ctx, orgId: string, projectId: string): Promise<void> {
  await requireFeature(c.m, orgId, 'auth_gated_pages', c.now, c.upgradeUrl);
  await c.m.Project.updateOne({ _id: projectId, org_id: orgId }, { $set: { reader_auth: null } });
}
