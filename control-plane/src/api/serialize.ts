/** Database records → API objects (the field sets of spec section 2). */
import type { Deployment, Page, Project } from '../db/models/index.ts';

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

export function deploymentJson(d: Deployment) {
  return {
    id: d._id,
    status: d.status as 'queued' | 'building' | 'deployed' | 'failed',
    commit_sha: d.commit_sha ?? null,
    project_id: d.project_id,
    started_at: iso(d.started_at)!,
    finished_at: iso(d.finished_at),
    pages_total: d.pages_total ?? null,
    pages_success: d.pages_success ?? null,
    pages_failed: d.pages_failed ?? null,
    error: d.error ?? null,
    warnings: d.warnings ?? [],
    redirects_added: (d.redirects_added as Array<{ from: string; to: string }> | null) ?? [],
    branch: d.branch ?? null,
    // Production deployments carry null, so a client tells the two apart by this field alone.
    preview_url: d.preview_url ?? null,
  };
}

export function pageJson(p: Omit<Page, 'search_text'>) {
  return {
    id: p._id,
    path: p.path,
    title: p.title ?? '',
    description: p.description ?? '',
    version: p.version ?? 'latest',
    source_mdx: p.source_mdx ?? '',
    compiled_html: p.compiled_html ?? '',
    updated_at: iso(p.updated_at)!,
  };
}
