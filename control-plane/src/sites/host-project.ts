/** Which project a site host belongs to: `{slug}.{SITES_DOMAIN}`, or a project's verified custom domain. */
import type { Models } from '../db/models/index.ts';

/** The host lower-cased without port or trailing dot. */
export const normalizeHost = (host: string | undefined): string => (host ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');

/** The id of the project served at `host`, or undefined. */
export async function projectIdForHost(m: Models, sitesDomain: string, host: string | undefined): Promise<string | undefined> {
  const h = normalizeHost(host);
  if (!h) return undefined;
  const suffix = `.${sitesDomain.toLowerCase()}`;
  const slug = h.endsWith(suffix) ? h.slice(0, -suffix.length) : undefined;
  if (slug && !slug.includes('.')) return (await m.Project.findOne({ slug }, { _id: 1 }).lean())?._id;
  // A custom domain is served only once its owner proved control of it (dashboard/domain-verification.ts).
  return (await m.Domain.findOne({ _id: h, status: 'verified' }, { project_id: 1 }).lean())?.project_id;
}
