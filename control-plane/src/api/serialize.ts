/** Database records → API objects (the field sets of spec section 2). */
import type { Project } from '../db/models/index.ts';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export function projectJson(p: Project) {
  return {
    id: p._id,
    name: p.name,
    slug: p.slug,
    status: p.status as 'pending' | 'building' | 'active' | 'failed',
    created_at: iso(p.created_at)!,
    github_repo: p.github_repo ?? null,
    custom_domain: p.custom_domain ?? null,
    github_branch: p.github_branch ?? null,
    last_deploy_at: iso(p.last_deploy_at),
  };
}
