/**
 * Site password settings (dashboard `GET/PUT/DELETE /projects/{id}/password`). Setting or
 * removing a password needs `password_protection` (pro) from the entitlement resolver; after a
 * downgrade the password keeps protecting the site and the settings are read-only: reading works,
 * changing answers 402 `plan_required` with the upgrade link (the way forward is the plan, not a
 * different request, so 402 rather than 409).
 */
import { z } from 'zod';
import type { Models } from '../db/models/index.ts';
import { hasFeature, requireFeature } from '../entitlements/resolver.ts';
import { conflict } from '../errors.ts';
import { hashSitePassword } from './site-password.ts';

/** Body of `PUT /projects/{id}/password`. */
export const sitePasswordBody = z.object({
  password: z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters'),
}).strict();

/** What the dashboard shows: never the password or its hash. */
export interface SitePasswordView { enabled: boolean; set_at: string | null; editable: boolean }

interface Ctx { m: Models; now: Date; upgradeUrl: string }

/** The settings view of a project the caller's organization owns. */
export async function sitePasswordView(c: Ctx, orgId: string, project: { site_password_hash?: string | null; site_password_set_at?: Date | null }): Promise<SitePasswordView> {
  return {
    enabled: Boolean(project.site_password_hash),
    set_at: project.site_password_set_at ? new Date(project.site_password_set_at).toISOString() : null,
    editable: await hasFeature(c.m, orgId, 'password_protection', c.now),
  };
}

/** Sets (or replaces) the site password; every visitor signed in before must sign in again. */
export async function setSitePassword(c: Ctx, orgId: string, projectId: string, password: string): Promise<SitePasswordView> {
  await requireFeature(c.m, orgId, 'password_protection', c.now, c.upgradeUrl);
  // Readers who sign in as themselves (sites/reader-auth/) and a shared password exclude each other.
  const current = await c.m.Project.findOne({ _id: projectId, org_id: orgId }, { reader_auth: 1 }).lean();
  if (current?.reader_auth?.mode) throw conflict('Readers sign in to the site; turn that off before setting a password');
  const hash = await hashSitePassword(password);
  const updated = await c.m.Project.findOneAndUpdate({ _id: projectId, org_id: orgId }, { $set: { site_password_hash: hash, site_password_set_at: c.now } }, { returnDocument: 'after' }).lean();
  return sitePasswordView(c, orgId, updated ?? {});
}

/** Makes the site public again. */
export async function removeSitePassword(c: Ctx, orgId: string, projectId: string): Promise<void> {
  await requireFeature(c.m, orgId, 'password_protection', c.now, c.upgradeUrl);
  await c.m.Project.updateOne({ _id: projectId, org_id: orgId }, { $set: { site_password_hash: null, site_password_set_at: null } });
}
