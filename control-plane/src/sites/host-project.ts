/**
 * Which site a host serves: `{slug}.{SITES_DOMAIN}` or a project's verified custom domain
 * (production), or `{slug}--{label}.{SITES_DOMAIN}` (a branch preview of the project `slug`).
 */
import type { Models } from '../db/models/index.ts';
import { splitPreviewHost } from './preview-label.ts';

/** The host lower-cased without port or trailing dot. */
export const normalizeHost = (host: string | undefined): string => (host ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');

/** The site a host serves: a project's production site, or one of its branch previews. */
export interface HostSite {
  projectId: string;
  /** Set on a preview host: the preview's label and branch, and the project's slug and custom domain (for the banner's link). */
  preview?: { label: string; branch: string; slug: string; customDomain: string | null };
}

/**
 * The site served at `host`, or undefined. A project whose slug is the whole first label wins (a
 * production site is never shadowed); otherwise the label is split at its last `--` into slug
 * and preview label (preview-label.ts), and only an active preview of that project answers.
 * Labels are given so that `{slug}--{label}` is never another project's slug (previews.ts).
 */
export async function siteForHost(m: Models, sitesDomain: string, host: string | undefined): Promise<HostSite | undefined> {
  const h = normalizeHost(host);
  if (!h) return undefined;
  const suffix = `.${sitesDomain.toLowerCase()}`;
  const first = h.endsWith(suffix) ? h.slice(0, -suffix.length) : undefined;
  if (first && !first.includes('.')) {
    const own = await m.Project.findOne({ slug: first }, { _id: 1 }).lean();
    if (own) return { projectId: own._id };
    const split = splitPreviewHost(first);
    if (!split) return undefined;
    const project = await m.Project.findOne({ slug: split.slug }, { _id: 1, slug: 1, custom_domain: 1 }).lean();
    if (!project) return undefined;
    const preview = await m.Preview.findOne({ project_id: project._id, label: split.label, status: 'active' }, { branch: 1 }).lean();
    if (!preview) return undefined;
    return { projectId: project._id, preview: { label: split.label, branch: preview.branch, slug: project.slug, customDomain: project.custom_domain ?? null } };
  }
  // A custom domain is served only once its owner proved control of it (dashboard/domain-verification.ts).
  const domain = await m.Domain.findOne({ hostname: h, status: 'verified' }, { project_id: 1 }).lean();
  return domain ? { projectId: domain.project_id } : undefined;
}

/** The id of the project whose production site is served at `host`, or undefined (a preview host is not production). */
export async function projectIdForHost(m: Models, sitesDomain: string, host: string | undefined): Promise<string | undefined> {
  const site = await siteForHost(m, sitesDomain, host);
  return site && !site.preview ? site.projectId : undefined;
}
