/**
 * Projects in the dashboard: the `/v1` project logic (quota, hooks that create the managed
 * repository, deletion) plus what only the dashboard may do: choose or rename the slug. Every
 * role may read; owners and admins create, change and delete.
 *
 * A slug rename takes effect at once: the site moves to the new `{slug}` host (the old host
 * stops answering and the old slug is free for anyone), the managed repository's Git URL
 * becomes `/git/<new slug>.git` (update the remote), and a deployment is queued so absolute
 * URLs in the site (canonical links, sitemap, llms.txt) use the new host.
 */
import { isPreviewHost } from '../previews/previews.ts';
import { z } from 'zod';
import { projectRoutes } from '../api/projects.ts';
import { deploymentSchema, githubRepoSchema, projectParams, projectSchema, slugSchema, SLUG_RULE } from '../api/schemas.ts';
import { deploymentJson, projectJson } from '../api/serialize.ts';
import { branchSchema } from '../api/branch-name.ts';
import type { Models, Project } from '../db/models/index.ts';
import { siteUrlOf } from '../sites/site-url.ts';
import { enqueueDeployment } from '../deploy/queue.ts';
import { conflict, notFound } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { auditAction } from './audit-hook.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { nameSchema, noContent } from './schemas.ts';
import { callV1, v1Route } from './v1-handlers.ts';


export const dashboardProjectSchema = projectSchema.extend({
  git_url: z.string().nullable().describe('Clone/push URL of the managed repository (HTTP Basic, an API key with projects:write as the password); null for own GitHub repositories'),
  site_url: z.string(),
  last_deployment: deploymentSchema.nullable(),
  live_commit_sha: z.string().nullable().describe('The commit the production site serves: that of its newest deployed deployment (a failed deployment after it leaves it live); null when nothing is live or the commit is unknown'),
}).meta({ id: 'DashboardProject' });

/** A project as the dashboard shows it. */
export async function dashboardProject(deps: Deps, p: Project) {
  // The production site's last deployment: branch previews are listed with the deployments.
  const [last, live] = await Promise.all([
    deps.m.Deployment.findOne({ project_id: p._id, preview_label: null }).sort({ started_at: -1, _id: -1 }).lean(),
    deps.m.Deployment.findOne({ project_id: p._id, preview_label: null, status: 'deployed' }, { commit_sha: 1 }).sort({ finished_at: -1, _id: -1 }).lean(),
  ]);
  return {
    ...projectJson(p),
    git_url: p.github_repo ? null : `${new URL(deps.env.publicApiUrl).origin}/git/${p.slug}.git`,
    site_url: siteUrlOf(deps, p),
    last_deployment: last ? deploymentJson(last) : null,
    live_commit_sha: live?.commit_sha ?? null,
  };
}

/** Why `slug` cannot be used, or undefined when it is free. */
async function slugProblem(m: Models, slug: string, exceptProjectId?: string): Promise<{ reason: 'invalid' | 'taken'; message: string } | undefined> {
  if (!slugSchema.safeParse(slug).success) return { reason: 'invalid', message: SLUG_RULE };
  const taken = await m.Project.exists({ slug, ...(exceptProjectId ? { _id: { $ne: exceptProjectId } } : {}) }) || await isPreviewHost(m, slug);
  return taken ? { reason: 'taken', message: `"${slug}" is already taken` } : undefined;
}

/** A free slug made from a project name: `My Docs` → `my-docs`, then `my-docs-2`, … */
async function slugFromName(m: Models, name: string): Promise<string> {
  const base = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 56).replace(/-+$/, '') || 'docs';
  for (let n = 1; n < 50; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!(await slugProblem(m, slug))) return slug;
  }
  return `${base}-${Date.now().toString(36)}`;
}

export function registerProjectRoutes(router: DashboardRouter, _deps: Deps): void {
  const createV1 = v1Route(projectRoutes, 'createProject');
  const updateV1 = v1Route(projectRoutes, 'updateProject');
  const deleteV1 = v1Route(projectRoutes, 'deleteProject');

  router.add(defineDashboardRoute({
    method: 'get', path: '/projects', operationId: 'dashboardListProjects', permission: 'projects.read', summary: 'Every project of the organization, newest first, with its last deployment',
    responses: { 200: { description: 'Projects', schema: z.object({ data: z.array(dashboardProjectSchema) }) } },
    async handler({ session, deps }) {
      const rows = await deps.m.Project.find({ org_id: session.orgId }).sort({ created_at: -1, _id: -1 }).lean();
      return { body: { data: await Promise.all(rows.map((p) => dashboardProject(deps, p))) } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'get', path: '/slug-available', operationId: 'dashboardSlugAvailable', permission: 'projects.read', summary: 'Whether a slug can be used (live validation)',
    query: z.object({ slug: z.string({ error: 'Required' }).max(200, 'must be at most 200 characters') }),
    responses: { 200: { description: '`reason` (`invalid` or `taken`) and `message` when not available', schema: z.object({ available: z.boolean(), reason: z.enum(['invalid', 'taken']).optional(), message: z.string().optional() }) } },
    async handler({ query, deps }) {
      const problem = await slugProblem(deps.m, query.slug);
      return { body: problem ? { available: false, ...problem } : { available: true } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/projects', operationId: 'dashboardCreateProject', permission: 'projects.write', summary: 'Create a project',
    description: 'Without `slug`, one is made from the name. Without `github_repo`, the platform hosts the Git repository (`git_url`). Limits and errors as `POST /v1/projects`.',
    body: z.strictObject({ name: nameSchema, slug: slugSchema.optional(), github_repo: githubRepoSchema.optional(), github_branch: branchSchema.optional() }),
    responses: { 201: { description: 'The new project', schema: dashboardProjectSchema }, 402: { description: 'plan_limit_reached' }, 409: { description: 'conflict: the slug is taken' } },
    async handler(input) {
      const { body, deps } = input;
      const slug = body.slug ?? await slugFromName(deps.m, body.name);
      const out = await callV1(createV1, input, { body: { ...body, slug } });
      const project = await deps.m.Project.findById((out.body as { id: string }).id).lean();
      await auditAction(input.ctx, deps, input.session, 'project.created', { type: 'project', id: project!._id, name: project!.slug });
      return { status: 201, body: await dashboardProject(deps, project!) };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'get', path: '/projects/:id', operationId: 'dashboardGetProject', permission: 'projects.read', summary: 'A project', params: projectParams,
    responses: { 200: { description: 'The project', schema: dashboardProjectSchema } },
    async handler({ params, session, deps }) {
      return { body: await dashboardProject(deps, await findOwnProject(deps.m, session.orgId, params.id)) };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'patch', path: '/projects/:id', operationId: 'dashboardUpdateProject', permission: 'projects.write', summary: 'Rename, change the branch or the slug',
    description: 'A slug change moves the site to the new host at once (the old one stops answering and its slug is free for others), '
      + 'changes the managed repository\'s Git URL, and (for a site published before) queues a deployment so the site\'s absolute URLs follow. A taken slug: 409 `conflict`.',
    params: projectParams, body: z.strictObject({ name: nameSchema.optional(), github_branch: branchSchema.optional(), slug: slugSchema.optional() }),
    responses: { 200: { description: 'The project', schema: dashboardProjectSchema }, 409: { description: 'conflict: the slug is taken' } },
    async handler(input) {
      const { params, body, session, deps } = input;
      const { slug, ...rest } = body;
      const before = await findOwnProject(deps.m, session.orgId, params.id);
      if (Object.keys(rest).length) await callV1(updateV1, input, { body: rest });
      if (slug !== undefined && slug !== before.slug) {
        try {
          await deps.m.Project.updateOne({ _id: before._id, org_id: session.orgId }, { $set: { slug } });
        } catch (err: any) {
          if (err?.code === 11000) throw conflict(`slug: "${slug}" is already taken`);
          throw err;
        }
        // Only a site that was published has URLs to refresh; an empty repository has nothing to build.
        if (before.last_deploy_at) {
          await enqueueDeployment(deps.m, before._id, { trigger: 'manual' }, deps.now());
          deps.services.wakeWorkers?.();
        }
      }
      const after = await deps.m.Project.findOne({ _id: before._id, org_id: session.orgId }).lean();
      if (!after) throw notFound('project');
      if (after.name !== before.name || after.slug !== before.slug) {
        await auditAction(input.ctx, deps, session, 'project.renamed', { type: 'project', id: after._id, name: after.slug },
          { ...(after.name !== before.name ? { name: { from: before.name, to: after.name } } : {}), ...(after.slug !== before.slug ? { slug: { from: before.slug, to: after.slug } } : {}) });
      }
      return { body: await dashboardProject(deps, after) };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'delete', path: '/projects/:id', operationId: 'dashboardDeleteProject', permission: 'projects.write', summary: 'Delete a project, its pages, deployments, repository and site',
    params: projectParams, responses: noContent,
    async handler(input) {
      const project = await findOwnProject(input.deps.m, input.session.orgId, input.params.id);
      await callV1(deleteV1, input);
      await auditAction(input.ctx, input.deps, input.session, 'project.deleted', { type: 'project', id: project._id, name: project.slug });
      return { status: 204 };
    },
  }));
}
