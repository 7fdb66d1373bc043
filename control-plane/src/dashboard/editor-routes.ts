/**
 * The web editor's drafts and files under `/dashboard/api/projects/:id/editor` (the map of the
 * editor's server side is src/editor/README.md). Session only (the dashboard API refuses API
 * keys), gated by `web_editor` through the entitlement resolver; reading needs `projects.read`,
 * changing drafts `content.edit`; another organization's project answers 404. Publishing and
 * preview register their routes from here too, from their own files (inline AI registers itself
 * in routes.ts).
 */
import { z } from 'zod';
import { configProblems } from '@folio/builder';
import { projectParams } from '../api/schemas.ts';
import { notFound } from '../errors.ts';
import { requireFeature } from '../entitlements/resolver.ts';
import { jsonBody } from '../http/app.ts';
import type { Deps } from '../http/route.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { getDraft, listDrafts, saveDraft, type DraftRecord } from '../editor/drafts.ts';
import { assertRoomFor, deleteFiles, discardFiles, moveFiles, storeAsset } from '../editor/operations.ts';
import { pageIndex } from '../editor/page-index.ts';
import { editorPath, fileKind, isTextPath } from '../editor/paths.ts';
import { readRepoFile } from '../editor/repo-files.ts';
import { currentContent, currentText, loadWorkspace, type WorkspaceFile } from '../editor/workspace.ts';
import { registerEditorPreviewRoutes } from './editor-preview-routes.ts';
import { registerEditorPublishRoutes } from './editor-publish-routes.ts';
import { defineDashboardRoute, type DashboardRouteDef, type DashboardRouter } from './dashboard-route.ts';
import { editorBody, MAX_TEXT_BYTES, tooLarge } from '../editor/limits.ts';

const BASE = '/projects/:id/editor';
const person = z.object({ id: z.string(), name: z.string(), email: z.string() });
const iso = z.string().describe('ISO 8601 time');
const status = z.enum(['unchanged', 'modified', 'added', 'deleted']);
const errorBody = (description: string) => ({ description });

/** The project, when it is the caller's and its plan has the web editor. */
async function editorProject(deps: Deps, orgId: string, id: string) {
  const project = await findOwnProject(deps.m, orgId, id);
  await requireFeature(deps.m, orgId, 'web_editor', deps.now(), deps.env.UPGRADE_URL);
  return project;
}

/** Names and emails of users by id (a removed user shows with an empty name and email). */
async function people(deps: Deps, ids: string[]): Promise<Map<string, z.infer<typeof person>>> {
  const users = await deps.m.User.find({ _id: { $in: [...new Set(ids)] } }, { name: 1, email: 1 }).lean();
  const out = new Map(users.map((u) => [String(u._id), { id: String(u._id), name: u.name ?? '', email: u.email }]));
  for (const id of ids) if (!out.has(id)) out.set(id, { id, name: '', email: '' });
  return out;
}

const treeFile = (f: WorkspaceFile, who: Map<string, z.infer<typeof person>>) => ({
  path: f.path, kind: f.kind, size: f.size, status: f.status,
  ...(f.draft?.renamed_from ? { renamed_from: f.draft.renamed_from } : {}),
  ...(f.draft ? { updated_by: who.get(f.draft.updated_by)!, updated_at: f.draft.updated_at.toISOString() } : {}),
});

const draftStatus = (d: DraftRecord, f: WorkspaceFile | undefined) => (d.content === null ? 'deleted' : f?.head ? 'modified' : 'added');

/** Registers a definition whose JSON body may be larger than the API's 1 MB default (a 1 MB page, a 2 MB image as base64). */
function addLarge(router: DashboardRouter, def: DashboardRouteDef): void {
  router.add(def);
  const layer = router.koa.stack.at(-1)!;
  // The definition's chain parses JSON with the default limit; this route's own parser takes its place.
  layer.stack = layer.stack.map((mw) => (mw === jsonBody ? editorBody : mw));
}

export function registerEditorRoutes(router: DashboardRouter, deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'get', path: `${BASE}/tree`, operationId: 'dashboardEditorTree', permission: 'projects.read', summary: 'The repository\'s files with the drafts laid over them',
    description: 'Files at the production branch head merged with the project\'s shared drafts: `modified`, `added` and `deleted` files carry who changed them last. Kinds: `page` (.mdx/.md), `snippet` (under snippets/), `config` (docs.json, mint.json), `asset` (under public/ or images/, or a binary extension), `other`.',
    params: projectParams,
    responses: {
      200: { description: 'The tree', schema: z.object({ branch: z.string(), head: z.string().nullable(), files: z.array(z.object({ path: z.string(), kind: z.enum(['page', 'snippet', 'config', 'asset', 'other']), size: z.number(), status, renamed_from: z.string().optional(), updated_by: person.optional(), updated_at: iso.optional() })) }) },
      409: errorBody('editor_repo_unsupported: the project builds from its own GitHub repository'),
    },
    async handler({ params, session, deps }) {
      await editorProject(deps, session.orgId, params.id);
      const ws = await loadWorkspace(deps, params.id);
      // Opening the tree warms the page index, so link autocomplete answers at once later.
      void pageIndex(deps, ws).catch(() => undefined);
      const who = await people(deps, ws.files.flatMap((f) => (f.draft ? [f.draft.updated_by] : [])));
      return { body: { branch: ws.branch, head: ws.head, files: ws.files.map((f) => treeFile(f, who)) } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'get', path: `${BASE}/file`, operationId: 'dashboardEditorFile', permission: 'projects.read', summary: 'A file as drafted, with its text at the draft\'s base',
    description: 'Text files come as `utf8`, others as `base64`. `content` is null for a file deleted as a draft; `base_content` is the file at `base_commit` (the commit the draft started from, else the head), null when it is new there.',
    params: projectParams, query: z.strictObject({ path: z.string({ error: 'Required' }) }),
    responses: {
      200: { description: 'The file', schema: z.object({ path: z.string(), kind: z.enum(['page', 'snippet', 'config', 'asset', 'other']), encoding: z.enum(['utf8', 'base64']), content: z.string().nullable(), base_commit: z.string().nullable(), base_content: z.string().nullable(), draft: z.object({ revision: z.number(), updated_by: person, updated_at: iso }).nullable() }) },
      400: errorBody('invalid_path'), 404: errorBody('not_found: no such file'),
    },
    async handler({ params, query, session, deps }) {
      await editorProject(deps, session.orgId, params.id);
      const path = editorPath('Path', query.path, 'any');
      const ws = await loadWorkspace(deps, params.id);
      const f = ws.byPath.get(path);
      const draft = f?.draft ?? await getDraft(deps, params.id, path);
      if (!f && !draft) throw notFound(`File ${path}`);
      const text = isTextPath(path);
      const content = f ? (await currentContent(deps, ws, f)).content : draft!.content;
      const baseCommit = draft ? draft.base_commit : ws.head;
      const base = baseCommit ? await readRepoFile(deps, params.id, baseCommit, path) : undefined;
      const who = draft ? await people(deps, [draft.updated_by]) : undefined;
      return {
        body: {
          path, kind: f?.kind ?? fileKind(path), encoding: text ? 'utf8' : 'base64', content, base_commit: baseCommit,
          base_content: base ? base.toString(text ? 'utf8' : 'base64') : null,
          draft: draft ? { revision: draft.revision, updated_by: who!.get(draft.updated_by)!, updated_at: draft.updated_at.toISOString() } : null,
        },
      };
    },
  }));

  addLarge(router, defineDashboardRoute({
    method: 'put', path: `${BASE}/file`, operationId: 'dashboardEditorSaveFile', permission: 'content.edit', summary: 'Save a file\'s draft',
    description: `Saves the whole text of a text file (${'`.mdx .md .json .yaml .yml .css .js .jsx .ts .tsx .txt`'}; 1 MB at most) as the project's draft of it. With \`revision\` (the draft's revision you edited; 0 for a file without a draft) the save only happens if nobody saved in between, else 409 \`draft_conflict\`.`,
    params: projectParams,
    body: z.strictObject({ path: z.string(), content: z.string(), revision: z.number().int().min(0).optional() }),
    responses: {
      200: { description: 'Saved', schema: z.object({ path: z.string(), revision: z.number(), updated_at: iso }) },
      400: errorBody('invalid_path'), 409: errorBody('draft_conflict, path_exists (a file where a folder of the path is, or a folder of that name)'), 413: errorBody('too_large'),
    },
    async handler({ params, body, session, deps }) {
      await editorProject(deps, session.orgId, params.id);
      const path = editorPath('Path', body.path, 'text');
      const bytes = Buffer.byteLength(body.content);
      if (bytes > MAX_TEXT_BYTES) throw tooLarge('Content', bytes, MAX_TEXT_BYTES, '1 MB');
      if (!(await getDraft(deps, params.id, path))) assertRoomFor(await loadWorkspace(deps, params.id), 'Path', path);
      const saved = await saveDraft(deps, params.id, session.userId, { path, content: body.content, kind: 'text', revision: body.revision });
      return { body: { path, revision: saved.revision, updated_at: saved.updated_at.toISOString() } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: `${BASE}/move`, operationId: 'dashboardEditorMove', permission: 'content.edit', summary: 'Move or rename a file or folder',
    description: 'As drafts: a deletion at the old path and the file at the new one (`renamed_from`). `links` lists the lines of pages, snippets and docs.json navigation that point at a moved page; with `update_links: true` they are rewritten as drafts (`updated`). Once published, the old URL keeps working: the build sees the rename in the commit and redirects the old URL to the new one (308).',
    params: projectParams, body: z.strictObject({ from: z.string(), to: z.string(), update_links: z.boolean().optional() }),
    responses: {
      200: { description: 'Moved', schema: z.object({ moved: z.array(z.object({ from: z.string(), to: z.string() })), links: z.array(z.object({ path: z.string(), line: z.number(), text: z.string() })), updated: z.array(z.string()) }) },
      400: errorBody('invalid_path'), 404: errorBody('not_found'), 409: errorBody('path_exists'),
    },
    async handler({ params, body, session, deps }) {
      await editorProject(deps, session.orgId, params.id);
      return { body: await moveFiles(deps, params.id, session.userId, body.from, body.to, body.update_links ?? false) };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: `${BASE}/delete`, operationId: 'dashboardEditorDelete', permission: 'content.edit', summary: 'Delete a file or folder (as drafts)',
    params: projectParams, body: z.strictObject({ path: z.string() }),
    responses: { 200: { description: 'Deleted', schema: z.object({ deleted: z.array(z.string()) }) }, 400: errorBody('invalid_path'), 404: errorBody('not_found') },
    async handler({ params, body, session, deps }) {
      await editorProject(deps, session.orgId, params.id);
      return { body: { deleted: await deleteFiles(deps, params.id, session.userId, body.path) } };
    },
  }));

  addLarge(router, defineDashboardRoute({
    method: 'post', path: `${BASE}/assets`, operationId: 'dashboardEditorUploadAsset', permission: 'content.edit', summary: 'Store an image as a draft',
    description: 'The upload API\'s rules: SVG, PNG, ICO, WebP or JPEG decided by content (an SVG is sanitised), 2 MB at most, the name confined to letters, digits, ".", "_" and "-" (its extension follows the detected type). Stored under `public/` (or the folder `path`); a different file with the same name gets `-2`, `-3`, …',
    params: projectParams, body: z.strictObject({ path: z.string().optional(), name: z.string(), content_base64: z.string() }),
    responses: { 201: { description: 'Stored', schema: z.object({ path: z.string(), url: z.string() }) }, 400: errorBody('invalid_request, invalid_path'), 409: errorBody('path_exists'), 413: errorBody('too_large') },
    async handler({ params, body, session, deps }) {
      await editorProject(deps, session.orgId, params.id);
      return { status: 201, body: await storeAsset(deps, params.id, session.userId, body) };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'get', path: `${BASE}/drafts`, operationId: 'dashboardEditorDrafts', permission: 'projects.read', summary: 'The project\'s open drafts and who changed them',
    params: projectParams,
    responses: { 200: { description: 'Drafts by path', schema: z.object({ data: z.array(z.object({ path: z.string(), status: z.enum(['modified', 'added', 'deleted']), renamed_from: z.string().optional(), updated_by: person, updated_at: iso, created_by: person })) }) } },
    async handler({ params, session, deps }) {
      await editorProject(deps, session.orgId, params.id);
      const ws = await loadWorkspace(deps, params.id);
      const list = await listDrafts(deps, params.id);
      const who = await people(deps, list.flatMap((d) => [d.updated_by, d.created_by]));
      return {
        body: {
          data: list.map((d) => ({
            path: d.path, status: draftStatus(d, ws.byPath.get(d.path)), ...(d.renamed_from ? { renamed_from: d.renamed_from } : {}),
            updated_by: who.get(d.updated_by)!, updated_at: d.updated_at.toISOString(), created_by: who.get(d.created_by)!,
          })),
        },
      };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: `${BASE}/discard`, operationId: 'dashboardEditorDiscard', permission: 'content.edit', summary: 'Discard drafts',
    description: 'Without `paths`, every draft of the project. Discarding the new half of a move also discards the deletion at its old path, so the file is back where it was.',
    params: projectParams, body: z.strictObject({ paths: z.array(z.string()).max(10_000).optional() }),
    responses: { 200: { description: 'Discarded', schema: z.object({ discarded: z.number() }) }, 400: errorBody('invalid_path') },
    async handler({ params, body, session, deps }) {
      await editorProject(deps, session.orgId, params.id);
      return { body: { discarded: await discardFiles(deps, params.id, body.paths) } };
    },
  }));

  addLarge(router, defineDashboardRoute({
    method: 'post', path: `${BASE}/validate-config`, operationId: 'dashboardEditorValidateConfig', permission: 'projects.read', summary: 'Check a docs.json text as the build would',
    description: 'The build\'s own messages (JSON syntax, schema, `$ref`s read from the drafts and the head), each at a line and column of the text. No problems: the build accepts it.',
    params: projectParams, body: z.strictObject({ content: z.string() }),
    responses: { 200: { description: 'Problems', schema: z.object({ problems: z.array(z.object({ line: z.number(), column: z.number(), message: z.string() })) }) } },
    async handler({ params, body, session, deps }) {
      await editorProject(deps, session.orgId, params.id);
      const bytes = Buffer.byteLength(body.content);
      if (bytes > MAX_TEXT_BYTES) throw tooLarge('Content', bytes, MAX_TEXT_BYTES, '1 MB');
      const ws = await loadWorkspace(deps, params.id);
      const problems = await configProblems(body.content, { siteUrl: 'https://docs.invalid', basePath: '' }, (p) => currentText(deps, ws, p));
      return { body: { problems } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'get', path: `${BASE}/links`, operationId: 'dashboardEditorLinks', permission: 'projects.read', summary: 'Pages with their URLs and heading ids, for link autocomplete',
    description: 'Drafts included. URLs and heading ids are the builder\'s own (its outline pass), so `/guides/install#fees-&-billing` is what the site serves.',
    params: projectParams,
    responses: { 200: { description: 'Pages', schema: z.object({ pages: z.array(z.object({ path: z.string(), url: z.string(), title: z.string(), headings: z.array(z.object({ id: z.string(), text: z.string(), depth: z.number() })) })) }) } },
    async handler({ params, session, deps }) {
      await editorProject(deps, session.orgId, params.id);
      return { body: { pages: await pageIndex(deps, await loadWorkspace(deps, params.id)) } };
    },
  }));

  registerEditorPublishRoutes(router, deps);
  registerEditorPreviewRoutes(router, deps);
}
