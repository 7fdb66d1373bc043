/**
 * The web editor's live preview under `/dashboard/api/projects/{id}/editor/preview`: the text a
 * member is typing is laid over the project's preview (editor/preview/previews.ts) and the
 * answer comes once that page is built, with its problems (line and column) and the capability
 * URL the editor's frame shows (`/editor-preview/<token>/<page>`, editor/preview/serve-preview.ts).
 * Nothing is saved: drafts are saved by `PUT /editor/file`. Permission `projects.read`, gate
 * `live_preview` (every plan has it); another organization's project answers 404.
 */
import { z } from 'zod';
import { projectParams } from '../api/schemas.ts';
import { requireFeature } from '../entitlements/resolver.ts';
import { AppError } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { editorPreviews } from '../editor/preview/previews.ts';
import { previewToken } from '../editor/preview/preview-token.ts';
import { PREVIEW_PREFIX } from '../editor/preview/serve-preview.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';

/** The most text a page may hold (as a draft may). */
const MAX_TEXT = 1024 * 1024;

const previewBody = z.strictObject({
  path: z.string().min(1).max(1024).describe('Repository path of the file being edited (`guide/intro.mdx`, `docs.json`)'),
  content: z.string().nullable().describe('Its text as typed; null shows the site without the file'),
});

const problem = z.object({
  line: z.number().int().describe('1-based line in the file (1 when the problem has no position)'),
  column: z.number().int().describe('1-based column (1 when the problem has no position)'),
  message: z.string(),
  file: z.string().optional().describe('The file the problem is in, when it is another (docs.json)'),
});

const previewResult = z.object({
  url: z.string().describe('The preview of the page, a capability URL under /editor-preview/ valid for one to two hours; the same while the token lasts, so a frame showing it is updated in place'),
  problems: z.array(problem).describe('Problems of the page (and of the site, such as docs.json): empty when it built'),
});

/** 400 for a path the builder would refuse. */
function checkPath(p: string): void {
  if (p.includes('\0') || p.includes('\\') || p.startsWith('/') || p.split('/').some((s) => s === '..' || s === '.' || s === '')) {
    throw new AppError(400, 'invalid_path', 'path must be a repository path such as guide/intro.mdx: no leading slash, no . or .. segments, no backslashes');
  }
}

export function registerEditorPreviewRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'post', path: '/projects/:id/editor/preview', operationId: 'dashboardEditorPreview', permission: 'projects.read',
    summary: 'Show a page as typed in the live preview',
    description: 'Lays the text over the project\'s preview (its production branch with every draft) and answers once the page is built: the preview URL and the page\'s problems. On a problem the URL keeps showing the last good version. The first call of a project starts its preview and waits for a whole build of the site.',
    params: projectParams, body: previewBody,
    responses: { 200: { description: 'Built (or failed with problems)', schema: previewResult } },
    async handler({ params, body, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      await requireFeature(deps.m, session.orgId, 'live_preview', deps.now(), deps.env.UPGRADE_URL);
      checkPath(body.path);
      if (body.content !== null && Buffer.byteLength(body.content, 'utf8') > MAX_TEXT) throw new AppError(413, 'too_large', 'A page may hold at most 1 MB of text');
      const result = await editorPreviews(deps).update(project._id, body.path, body.content).catch((err: unknown) => {
        if (err instanceof AppError) throw err;
        throw new AppError(503, 'preview_unavailable', `The preview could not be built: ${(err as Error).message}`);
      });
      const token = await previewToken(deps.m, project._id, session.userId, deps.now());
      const origin = new URL(deps.env.publicApiUrl).origin;
      return {
        body: {
          url: `${origin}${PREVIEW_PREFIX}${token}${result.urlPath ?? '/'}`,
          problems: result.problems.map((p) => ({ line: p.line ?? 1, column: p.column ?? 1, message: p.message, ...(p.file && p.file !== body.path ? { file: p.file } : {}) })),
        },
      };
    },
  }));
}
