/** Project endpoints (spec section 4). A key sees only its organization's projects. */
import { isPreviewHost } from '../previews/previews.ts';
import type { Project } from '../db/models/index.ts';
import { checkLifetimeCap, settleProjectCap, withProjectLock } from '../entitlements/resolver.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { resolveRepo } from '../github/resolve-repo.ts';
import { defineRoute, type Deps } from '../http/route.ts';
import { findOwnProject } from '../projects/own-project.ts';
import type { ProjectHooks } from '../projects/project-hooks.ts';
import {
  createProjectBody, listProjectsQuery, projectListSchema, projectParams, projectSchema, updateProjectBody,
} from './schemas.ts';
import { projectJson } from './serialize.ts';

function hooks(deps: Deps): ProjectHooks[] {
  return deps.services.projectHooks ?? [];
}

const TAGS = ['Projects'];

export const projectRoutes = [
  defineRoute({
    method: 'post', path: '/projects', operationId: 'createProject', summary: 'Create a project', tags: TAGS,
    description: 'Creates a docs site. Without `github_repo` the platform hosts its Git repository (push to deploy). '
      + 'With `github_repo` (`owner/name`, any letter case), the repository must be readable through a GitHub App installation '
      + 'connected to the key\'s organization (dashboard: Settings → GitHub): the project stores GitHub\'s spelling of the name, '
      + 'and builds read the repository with a token of that installation restricted to it. Otherwise 422 `github_repo_not_accessible`, '
      + 'the same answer whether or not the repository exists; 422 `github_not_configured` when the server has no GitHub App. '
      + '`github_branch` (default main) is the branch synced; it must be a Git branch name, not HEAD, without a refs/ prefix. '
      + 'On a plan whose `max_projects` is reached: 402 `plan_limit_reached` with an `upgrade_url`. A taken slug: 409 `conflict`.',
    auth: 'projects:write', body: createProjectBody,
    responses: {
      201: { description: 'The new project', schema: projectSchema }, 402: { description: 'plan_limit_reached (with upgrade_url)' }, 409: { description: 'conflict: the slug is taken' },
      422: { description: 'github_repo_not_accessible: no GitHub App installation of the organization can read `github_repo`; github_not_configured: no GitHub App on this server' },
      502: { description: 'github_unavailable: GitHub did not answer' },
    },
    async handler({ body, auth, deps }) {
      // Asked before the lock: GitHub's answer may take a while, other creations need not wait for it.
      const repo = body.github_repo ? await resolveRepo(deps, auth.orgId, body.github_repo) : null;
      // One creation at a time per organization: the cap checked is the cap created against.
      const project = await withProjectLock(deps.m, auth.orgId, async () => {
        const quota = await checkLifetimeCap(deps.m, auth.orgId, 'max_projects', deps.now(), deps.env.UPGRADE_URL);
        // A branch preview's address (`{slug}--{label}`) is taken like a slug.
        if (await isPreviewHost(deps.m, body.slug)) throw conflict(`slug: "${body.slug}" is already taken`);
        let created;
        try {
          created = await deps.m.Project.create({
            org_id: auth.orgId, name: body.name, slug: body.slug, github_branch: body.github_branch ?? 'main', created_at: deps.now(),
            github_repo: repo?.fullName ?? null, github_repo_id: repo?.repoId ?? null, github_installation_id: repo?.installationId ?? null,
          });
        } catch (err: any) {
          if (err?.code === 11000) throw conflict(`slug: "${body.slug}" is already taken`);
          throw err;
        }
        const doc = created.toObject();
        // Still settled afterwards: a lock that outlived its holder (10 s) must not let two through.
        await settleProjectCap(deps.m, auth.orgId, doc._id, quota, deps.now(), deps.env.UPGRADE_URL);
        return doc;
      });
      for (const h of hooks(deps)) await h.created?.({ id: project._id, slug: project.slug, github_repo: project.github_repo ?? null, github_branch: project.github_branch ?? 'main' });
      return { status: 201, body: projectJson(project), headers: { Location: `${deps.env.publicApiUrl}/projects/${project._id}` } };
    },
  }),
  defineRoute({
    method: 'get', path: '/projects', operationId: 'listProjects', summary: 'List projects', tags: TAGS,
    description: 'Newest created first. `total` counts every match of the filter, not just this page.',
    auth: 'projects:read', query: listProjectsQuery,
    responses: { 200: { description: 'Projects of the key\'s organization', schema: projectListSchema } },
    async handler({ query, auth, deps }) {
      const filter = { org_id: auth.orgId, ...(query.status ? { status: query.status } : {}) };
      // One round trip for the page and the total.
      const [result] = await deps.m.Project.aggregate<{ rows: Project[]; total: { n: number }[] }>([
        { $match: filter },
        { $facet: { rows: [{ $sort: { created_at: -1, _id: -1 } }, { $limit: query.limit }], total: [{ $count: 'n' }] } },
      ]);
      return { body: { data: result.rows.map(projectJson), total: result.total[0]?.n ?? 0 } };
    },
  }),
  defineRoute({
    method: 'get', path: '/projects/:id', operationId: 'getProject', summary: 'Get a project', tags: TAGS,
    auth: 'projects:read', params: projectParams,
    responses: { 200: { description: 'The project', schema: projectSchema } },
    async handler({ params, auth, deps }) {
      return { body: projectJson(await findOwnProject(deps.m, auth.orgId, params.id)) };
    },
  }),
  defineRoute({
    method: 'patch', path: '/projects/:id', operationId: 'updateProject', summary: 'Update a project', tags: TAGS,
    description: 'Only `name`, `github_branch` and `github_repo` change through the API; `slug` and `custom_domain` are dashboard operations. '
      + '`github_repo` reconnects a project already connected to GitHub (another repository, or the same one through a GitHub App installation '
      + 'of the organization, as projects connected before installations existed need); it is checked as on creation (422 `github_repo_not_accessible`). '
      + 'A project whose repository the platform hosts cannot move to GitHub (400).',
    auth: 'projects:write', params: projectParams, body: updateProjectBody,
    responses: {
      200: { description: 'The updated project', schema: projectSchema },
      422: { description: 'github_repo_not_accessible or github_not_configured, as on creation' },
      502: { description: 'github_unavailable: GitHub did not answer' },
    },
    async handler({ params, body, auth, deps }) {
      const before = await findOwnProject(deps.m, auth.orgId, params.id);
      const { github_repo: repoName, ...fields } = body;
      let set: Record<string, unknown> = fields;
      if (repoName !== undefined) {
        if (!before.github_repo) throw invalid('github_repo', 'Unexpected for a project whose repository the platform hosts; expected a project created with github_repo');
        const repo = await resolveRepo(deps, auth.orgId, repoName);
        set = { ...fields, github_repo: repo.fullName, github_repo_id: repo.repoId, github_installation_id: repo.installationId };
      }
      const updated = await deps.m.Project.findOneAndUpdate({ _id: params.id, org_id: auth.orgId }, { $set: set }, { returnDocument: 'after' }).lean();
      if (!updated) throw notFound('project');
      return { body: projectJson(updated) };
    },
  }),
  defineRoute({
    method: 'delete', path: '/projects/:id', operationId: 'deleteProject', summary: 'Delete a project', tags: TAGS,
    description: 'Removes the project, all its pages, all its deployments and its branch previews permanently.',
    auth: 'projects:write', params: projectParams,
    responses: { 204: { description: 'Deleted' } },
    async handler({ params, auth, deps }) {
      const project = await findOwnProject(deps.m, auth.orgId, params.id);
      await deps.m.Page.deleteMany({ project_id: project._id });
      await deps.m.Deployment.deleteMany({ project_id: project._id });
      await deps.m.Domain.deleteMany({ project_id: project._id });
      await deps.m.Preview.deleteMany({ project_id: project._id });
      await deps.m.Project.deleteOne({ _id: project._id });
      for (const h of hooks(deps)) await h.deleted?.({ id: project._id, slug: project.slug });
      return { status: 204 };
    },
  }),
];
