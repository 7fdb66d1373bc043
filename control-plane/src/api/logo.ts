/** Project logo endpoints: upload (multipart files or URLs the server downloads) and delete. */
import type Koa from 'koa';
import { z } from 'zod';
import { AppError, invalid } from '../errors.ts';
import { defineRoute, type Deps } from '../http/route.ts';
import { validate } from '../http/validate.ts';
import { detectFile, type DetectedFile, type FileKind } from '../uploads/detect-type.ts';
import { safeFetch } from '../outbound/safe-fetch.ts';
import { deleteSiteFiles, putSiteFile, shortHash } from '../uploads/site-files.ts';
import { discardSpooled, fileBytes, fileField, readJsonBody, type UploadedFile } from '../uploads/upload-input.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { projectParams } from './schemas.ts';

const LOGO_KINDS: readonly FileKind[] = ['svg', 'png', 'jpeg', 'webp'];
const LOGO_PREFIX = '/_folio/logo/';
const MODES = ['light', 'dark'] as const;
type Mode = typeof MODES[number];

const logoFiles = z.strictObject({
  light: fileField('Logo for light mode (SVG, PNG, JPEG or WebP by content; 2 MB max); used for both modes when dark is absent').optional(),
  dark: fileField('Logo for dark mode (SVG, PNG, JPEG or WebP by content; 2 MB max)').optional(),
}).meta({ id: 'LogoUpload' });

const url = z.string({ error: 'Unexpected value; expected an http or https URL' }).max(2048, { error: 'must be at most 2048 characters' });
const logoUrls = z.strictObject({ light: url.optional(), dark: url.optional() });

export const logoSchema = z.object({
  logo: z.object({ light: z.string(), dark: z.string() }),
}).meta({ id: 'Logo' });

async function download(deps: Deps, field: Mode, target: string): Promise<Buffer> {
  const { fetchAllowHosts, fetchTimeoutMs } = deps.services;
  return safeFetch(target, { field, allowHosts: fetchAllowHosts, timeoutMs: fetchTimeoutMs });
}

/** The raw bytes per mode the request carried, from files or from URLs. */
async function logoInput(ctx: Koa.Context, deps: Deps, files: z.infer<typeof logoFiles>): Promise<Partial<Record<Mode, Buffer>>> {
  const out: Partial<Record<Mode, Buffer>> = {};
  if (ctx.is('multipart')) {
    for (const mode of MODES) if (files[mode]) out[mode] = await fileBytes(files[mode] as UploadedFile);
  } else if (ctx.is('json')) {
    const urls = validate(logoUrls, await readJsonBody(ctx), 'body');
    for (const mode of MODES) if (urls[mode] !== undefined) out[mode] = await download(deps, mode, urls[mode]);
  } else if (ctx.request.length || ctx.get('transfer-encoding')) {
    throw new AppError(415, 'unsupported_media_type', `Unexpected content type ${ctx.request.type}; expected multipart/form-data or application/json`);
  }
  return out;
}

const TAGS = ['Projects'];

export const logoRoutes = [
  defineRoute({
    method: 'put', path: '/projects/:id/logo', operationId: 'uploadLogo', summary: 'Upload the project logo', tags: TAGS,
    description: 'Either `multipart/form-data` with file fields `light` and/or `dark`, or `application/json` '
      + '`{ "light": "<url>", "dark": "<url>" }` whose URLs the server downloads (http or https; public addresses only; '
      + 'at most 3 redirects; 10 s). The type is decided from the bytes, not the file name: SVG (an XML document whose '
      + 'root is `<svg>`), PNG, JPEG or WebP; anything else is 400 naming the field. 2 MB per file (413). SVGs are '
      + 'sanitised (no script, event handlers, foreignObject, DOCTYPE or entities; no references but same-document '
      + '#fragments and inline raster images; no CSS url() but url(#id), no @import) and served with '
      + '`Content-Security-Policy: default-src \'none\'; style-src \'unsafe-inline\'`. Only `light` given: used for both modes. Only `dark` given: the current light logo stays, '
      + 'or when there is none the dark one is used for both. Files are stored with the site and answered as '
      + 'root-relative paths it serves, e.g. `/_folio/logo/light-0123456789ab.svg`; replaced files are deleted.',
    auth: 'projects:write', params: projectParams, body: logoFiles, bodyType: 'multipart',
    responses: { 200: { description: 'The stored logo', schema: logoSchema }, 415: { description: 'unsupported_media_type: neither multipart nor JSON' } },
    async handler({ ctx, params, body, auth, deps }) {
      try {
        const project = await findOwnProject(deps.m, auth.orgId, params.id);
        const input = await logoInput(ctx, deps, body);
        if (!input.light && !input.dark) throw invalid('body', 'Missing logo; expected a light and/or dark file or URL');
        const stored: Partial<Record<Mode, string>> = {};
        for (const mode of MODES) {
          const bytes = input[mode];
          if (!bytes) continue;
          const file: DetectedFile = detectFile(mode, bytes, LOGO_KINDS);
          const path = `${LOGO_PREFIX}${mode}-${shortHash(file.bytes)}.${file.ext}`;
          await putSiteFile(deps, project._id, path, file);
          stored[mode] = path;
        }
        const old = project.logo ?? null;
        const light = stored.light ?? old?.light ?? stored.dark!;
        const logo = { light, dark: stored.dark ?? light };
        await deps.m.Project.updateOne({ _id: project._id, org_id: auth.orgId }, { $set: { logo } });
        const stale = [old?.light, old?.dark].filter((p) => p !== logo.light && p !== logo.dark);
        await deleteSiteFiles(deps, project._id, stale, LOGO_PREFIX);
        return { body: { logo } };
      } finally {
        await discardSpooled(ctx);
      }
    },
  }),
  defineRoute({
    method: 'delete', path: '/projects/:id/logo', operationId: 'deleteLogo', summary: 'Delete the project logo', tags: TAGS,
    description: 'Removes the stored logo files and clears the project\'s logo. Answers 204 also when there was none.',
    auth: 'projects:write', params: projectParams,
    responses: { 204: { description: 'Deleted' } },
    async handler({ params, auth, deps }) {
      const project = await findOwnProject(deps.m, auth.orgId, params.id);
      await deps.m.Project.updateOne({ _id: project._id, org_id: auth.orgId }, { $set: { logo: null } });
      await deleteSiteFiles(deps, project._id, [project.logo?.light, project.logo?.dark], LOGO_PREFIX);
      return { status: 204 };
    },
  }),
];
