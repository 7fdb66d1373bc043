/**
 * Publishing from the web editor, under `/dashboard/api/projects/:id/editor` (src/editor/publish/
 * README.md): `POST /publish` turns the project's drafts into one commit and deploys it,
 * `POST /resolve` saves a conflict's resolution as the draft with the branch head as its new
 * base, `POST /merge` merges a branch into the production branch, `GET /branches` lists them.
 * Session only; `content.publish` to change the repository, `projects.read` to list; gated by
 * `web_editor`, and branches other than production by `preview_deployments` (pro). Another
 * organization's project answers 404.
 */
import { z } from 'zod';
import { projectParams } from '../api/schemas.ts';
import type { EditorDraft } from '../db/models/editor-draft.ts';
import { listDrafts, saveDraft, type DraftRecord } from '../editor/drafts.ts';
import { editorPath, isTextPath } from '../editor/paths.ts';
import { checkBranchName } from '../editor/publish/branch-name.ts';
import { branchList, currentBase, mergeBranch, publishDrafts, type Publisher } from '../editor/publish/publish.ts';
import { productionBranch } from '../editor/repo-access.ts';
import { requireFeature } from '../entitlements/resolver.ts';
import { AppError } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { auditAction } from './audit-hook.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { requestIp, type DashboardSession } from './session-auth.ts';
import type Koa from 'koa';

const BASE = '/projects/:id/editor';
const errorBody = (description: string) => ({ description });

const conflict = z.object({
  path: z.string(), binary: z.boolean().describe('True for a file that cannot be merged as text (then the versions are null)'),
  base: z.string().nullable(), ours: z.string().nullable(), theirs: z.string().nullable(), merged_with_markers: z.string().nullable(),
});
/** 409 answers that carry more than `{ error, message }`. */
const conflictError = z.object({
  error: z.string(), message: z.string(),
  conflicts: z.array(conflict).optional().describe('merge_conflict: each file that could not be merged'),
  paths: z.array(z.string()).optional().describe('upstream_deleted: the drafts whose file the branch deleted or moved'),
});
const published = z.object({
  commit: z.string(), branch: z.string(), deployment_id: z.string().nullable().describe('The production deployment or the branch\'s preview; null when nothing was queued'),
  merged: z.array(z.string()).describe('Paths merged with changes pushed since their draft began'),
  site_url: z.string().describe('The live site, or the branch\'s preview'),
});

/** The project, when it is the caller's and its plan has the web editor. */
async function editorProject(deps: Deps, orgId: string, id: string) {
  const project = await findOwnProject(deps.m, orgId, id);
  await requireFeature(deps.m, orgId, 'web_editor', deps.now(), deps.env.UPGRADE_URL);
  return project;
}

/** The signed-in member as the commit's author. */
async function publisher(ctx: Koa.Context, deps: Deps, session: DashboardSession): Promise<Publisher> {
  const user = await deps.m.User.findById(session.userId, { name: 1, email: 1 }).lean();
  const email = user?.email ?? 'unknown@invalid';
  return { userId: session.userId, author: { name: user?.name?.trim() || email.split('@')[0], email }, ip: requestIp(ctx, deps.env) };
}

/** The drafts a publish takes: all, or those of `paths` plus the deletions their moves left behind. */
function selectDrafts(all: DraftRecord[], paths: string[] | undefined): DraftRecord[] {
  if (!paths) return all;
  const wanted = new Set(paths.map((p, i) => editorPath(`paths[${i}]`, p, 'any')));
  const byPath = new Map(all.map((d) => [d.path, d]));
  for (const p of wanted) if (!byPath.has(p)) throw new AppError(404, 'not_found', `No draft of ${p}; list the drafts with GET /editor/drafts`);
  for (const p of [...wanted]) {
    const from = byPath.get(p)!.renamed_from;
    if (from && byPath.get(from)?.content === null) wanted.add(from);
  }
  return all.filter((d) => wanted.has(d.path));
}

export function registerEditorPublishRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'post', path: `${BASE}/publish`, operationId: 'dashboardEditorPublish', permission: 'content.publish', summary: 'Publish the drafts as one commit',
    description: 'Commits all drafts (or those of `paths`) to the production branch, or to `branch` (created from the production head; pro, it builds the branch\'s preview), with the signed-in member as author and the platform as committer, then deploys as a push does. Files pushed to since their draft began are merged line by line; overlapping changes answer 409 `merge_conflict` with each file\'s versions and nothing is committed. Published drafts are removed (a draft saved again meanwhile stays).',
    params: projectParams,
    body: z.strictObject({
      message: z.string().trim().min(1, 'Required: the commit message').max(10_000).refine((m) => !m.includes('\0'), 'Unexpected NUL character; expected text'),
      branch: z.string().optional(),
      paths: z.array(z.string()).min(1).max(1000).optional(),
    }),
    responses: {
      200: { description: 'Committed and deploying', schema: published },
      400: errorBody('invalid_request, invalid_path'), 402: errorBody('plan_required (web_editor; preview_deployments for a branch)'), 404: errorBody('not_found'),
      409: { description: 'merge_conflict (with `conflicts`), upstream_deleted (with `paths`), nothing_to_publish, branch_busy, push_refused, github_write_refused, editor_repo_unsupported', schema: conflictError },
    },
    async handler({ ctx, params, body, session, deps }) {
      const project = await editorProject(deps, session.orgId, params.id);
      const production = productionBranch(project);
      const branch = body.branch === undefined ? production : checkBranchName('branch', body.branch);
      if (branch !== production) await requireFeature(deps.m, session.orgId, 'preview_deployments', deps.now(), deps.env.UPGRADE_URL);
      const drafts = selectDrafts(await listDrafts(deps, project._id), body.paths);
      const out = await publishDrafts(deps, project, { drafts, message: body.message, branch, by: await publisher(ctx, deps, session) });
      // Only drafts nobody saved again since they were read: a newer save stays a draft.
      await deps.m.EditorDraft.deleteMany({ project_id: project._id, $or: out.published.map((d) => ({ path: d.path, revision: (d as DraftRecord).revision })) });
      await auditAction(ctx, deps, session, 'editor.published', { type: 'project', id: project._id, name: project.slug }, {
        commit_sha: out.commit, branch: out.branch, paths: drafts.map((d) => d.path).slice(0, 100), merged: out.merged,
      });
      return { body: { commit: out.commit, branch: out.branch, deployment_id: out.deployment_id, merged: out.merged, site_url: out.site_url } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: `${BASE}/resolve`, operationId: 'dashboardEditorResolve', permission: 'content.publish', summary: 'Save a conflict\'s resolution',
    description: 'Saves `content` as the draft of `path` with the production branch\'s current head (and the file there) as its new base, so the next publish takes it as written.',
    params: projectParams,
    body: z.strictObject({ path: z.string(), content: z.string().max(1024 * 1024) }),
    responses: {
      200: { description: 'Resolved', schema: z.object({ path: z.string(), revision: z.number(), base_commit: z.string().nullable() }) },
      400: errorBody('invalid_path'), 404: errorBody('not_found'), 409: errorBody('editor_repo_unsupported'),
    },
    async handler({ params, body, session, deps }) {
      const project = await editorProject(deps, session.orgId, params.id);
      const path = editorPath('path', body.path, 'any');
      if (!isTextPath(path)) throw new AppError(400, 'invalid_path', `path: ${path} is not a text file; a binary file's conflict is resolved by uploading the version to keep`);
      const base = await currentBase(deps, project, path);
      const saved = await saveDraft(deps, project._id, session.userId, { path, content: body.content, kind: 'text' });
      // The new base: the next publish merges against the head as it is now (which the resolution already holds).
      await deps.m.EditorDraft.updateOne({ project_id: project._id, path, revision: saved.revision } as Partial<EditorDraft>, { $set: { base_commit: base.commit, base_blob: base.blob } });
      return { body: { path, revision: saved.revision, base_commit: base.commit } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: `${BASE}/merge`, operationId: 'dashboardEditorMerge', permission: 'content.publish', summary: 'Merge a branch into the production branch',
    description: 'Fast-forwards the production branch to `branch` when it has not moved since the branch left it, else makes a merge commit (author the member, committer the platform); conflicting changes answer 409 `merge_conflict` with each file\'s versions and Git\'s conflict markers, and nothing is committed. Pro (`preview_deployments`).',
    params: projectParams,
    body: z.strictObject({ branch: z.string() }),
    responses: {
      200: { description: 'Merged and deploying (`deployment_id` null when the branch was already merged)', schema: published.extend({ from: z.string(), fast_forward: z.boolean() }) },
      400: errorBody('invalid_request'), 402: errorBody('plan_required'), 404: errorBody('not_found: no such branch'), 409: { description: 'merge_conflict (with `conflicts`), merge_failed (no common history), branch_busy, push_refused, github_write_refused, editor_repo_unsupported', schema: conflictError },
    },
    async handler({ ctx, params, body, session, deps }) {
      const project = await editorProject(deps, session.orgId, params.id);
      const branch = checkBranchName('branch', body.branch);
      await requireFeature(deps.m, session.orgId, 'preview_deployments', deps.now(), deps.env.UPGRADE_URL);
      const out = await mergeBranch(deps, project, branch, await publisher(ctx, deps, session));
      if (out.deployment_id) {
        await auditAction(ctx, deps, session, 'editor.merged', { type: 'project', id: project._id, name: project.slug }, { commit_sha: out.commit, branch, into: out.into, fast_forward: out.fast_forward });
      }
      return { body: { commit: out.commit, branch: out.into, from: branch, fast_forward: out.fast_forward, deployment_id: out.deployment_id, merged: [], site_url: out.site_url } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'get', path: `${BASE}/branches`, operationId: 'dashboardEditorBranches', permission: 'projects.read', summary: 'The repository\'s branches',
    params: projectParams,
    responses: {
      200: { description: 'Branches by name, with the preview URL of those that have one', schema: z.object({ production: z.string(), data: z.array(z.object({ name: z.string(), head: z.string(), preview_url: z.string().optional() })) }) },
      402: errorBody('plan_required'), 404: errorBody('not_found'), 409: errorBody('editor_repo_unsupported'),
    },
    async handler({ params, session, deps }) {
      const project = await editorProject(deps, session.orgId, params.id);
      return { body: { production: productionBranch(project), data: await branchList(deps, project) } };
    },
  }));
}
