/** Size limits of the web editor's routes (dashboard/editor-routes.ts). */
import { koaBody } from 'koa-body';
import { AppError } from '../errors.ts';

/** Most bytes of one text file saved from the editor. */
export const MAX_TEXT_BYTES = 1024 * 1024;
/** JSON bodies of the editor's large routes: a 1 MB page escaped, or a 2 MB image as base64 (other routes keep http/limits.ts `JSON_LIMIT`). */
export const EDITOR_JSON_LIMIT = '4mb';

/** The JSON parser of the editor's large routes (like http/app.ts `jsonBody`, with {@link EDITOR_JSON_LIMIT}). */
export const editorBody = koaBody({ jsonLimit: EDITOR_JSON_LIMIT, jsonStrict: true, includeUnparsed: true, text: false, urlencoded: false });

/** 413 `too_large` naming the field, its size and the limit. */
export const tooLarge = (field: string, bytes: number, limit: number, label: string) =>
  new AppError(413, 'too_large', `${field}: Unexpected size ${bytes} bytes; expected at most ${limit} (${label})`);
