/** `POST /projects/{id}/asset`: an image for the site's `public/` folder (logo variants, favicon, og image). */
import { z } from 'zod';
import { AppError, invalid } from '../errors.ts';
import { defineRoute } from '../http/route.ts';
import { commitFile } from '../git/managed-repos.ts';
import { confineDir, confineName } from '../uploads/asset-path.ts';
import { detectFile, type FileKind } from '../uploads/detect-type.ts';
import { putSiteFile, shortHash } from '../uploads/site-files.ts';
import { discardSpooled, fileBytes, fileField } from '../uploads/upload-input.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { projectParams } from './schemas.ts';

const ASSET_KINDS: readonly FileKind[] = ['svg', 'png', 'ico', 'webp', 'jpeg'];
/** Where own-repository projects' uploads are served from (the repository's public/ is theirs). */
export const UPLOADED_ASSETS_PREFIX = '/_folio/assets-uploaded/';

const assetForm = z.strictObject({
  file: fileField('Required. SVG, PNG, ICO, WebP or JPEG, decided by content; 2 MB max').optional(),
  dir: z.string({ error: 'Unexpected value; expected a folder path' }).optional()
    .describe('Folder under public/, e.g. `images/brand`; default public/ itself. Segments use A-Z a-z 0-9 . _ -'),
  name: z.string({ error: 'Unexpected value; expected a file name' }).optional()
    .describe('File name without extension (the extension follows the detected type); default the uploaded file\'s name'),
}).meta({ id: 'AssetUpload' });

const assetSchema = z.object({
  path: z.string().describe('The value to write into docs.json (root-relative path served by the site)'),
}).meta({ id: 'Asset' });

/** The uploaded file's own name without its extension, the default for `name`. */
function stem(filename: string | null | undefined): string {
  const base = (filename ?? '').split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

export const assetRoutes = [
  defineRoute({
    method: 'post', path: '/projects/:id/asset', operationId: 'uploadAsset', summary: 'Upload an asset', tags: ['Projects'],
    description: 'Multipart form: `file` (required; SVG, PNG, ICO, WebP or JPEG decided by content, 2 MB max; SVGs are '
      + 'sanitised like logos), `dir` (folder under `public/`) and `name` (without extension; the extension follows the '
      + 'detected type). `dir` and `name` are decoded until stable and must stay inside `public/`: `..`, absolute paths, '
      + 'backslashes, NUL and their encoded forms are 400. The configuration is not edited; the answer is the value to '
      + 'write into it. Managed projects (no `github_repo`): the file is committed to `public/<dir>/<name>.<ext>` on the '
      + 'synced branch (which queues a sync) and the path is `/<dir>/<name>.<ext>`. Own-repository projects: the file is '
      + 'hosted with the site, not committed, and the path is `/_folio/assets-uploaded/<dir>/<name>-<hash>.<ext>` '
      + '(content-addressed, so it can be cached for good).',
    auth: 'projects:write', params: projectParams, body: assetForm, bodyType: 'multipart',
    responses: { 201: { description: 'Stored', schema: assetSchema }, 415: { description: 'unsupported_media_type: not multipart/form-data' } },
    async handler({ ctx, params, body, auth, deps }) {
      try {
        const project = await findOwnProject(deps.m, auth.orgId, params.id);
        if (!ctx.is('multipart')) throw new AppError(415, 'unsupported_media_type', `Unexpected content type ${ctx.request.type || 'none'}; expected multipart/form-data`);
        if (!body.file) throw invalid('file', 'Required');
        const dir = confineDir(body.dir);
        const name = confineName(body.name ?? stem(body.file.originalFilename));
        const file = detectFile('file', await fileBytes(body.file), ASSET_KINDS);
        const folder = dir ? `${dir}/` : '';
        if (!project.github_repo) {
          const repoFile = `public/${folder}${name}.${file.ext}`;
          await commitFile(deps, project._id, repoFile, file.bytes, `Upload ${repoFile}`);
          return { status: 201, body: { path: `/${folder}${name}.${file.ext}` } };
        }
        const urlPath = `${UPLOADED_ASSETS_PREFIX}${folder}${name}-${shortHash(file.bytes)}.${file.ext}`;
        await putSiteFile(deps, project._id, urlPath, file);
        return { status: 201, body: { path: urlPath } };
      } finally {
        await discardSpooled(ctx);
      }
    },
  }),
];
