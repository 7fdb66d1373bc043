/**
 * The three calls the editing extensions make, as an interface: the editor page passes its
 * project's client (`editor/api.ts`, which has these and more), and `fetchExtensionsApi` is a
 * small implementation of the same routes for pages and tests without it.
 */
import { API_BASE, requestJson } from '../../api.ts';

/** A problem in `docs.json`, at its 1-based line and column, in the build's own words. */
export interface ConfigProblem { line: number; column: number; message: string }

/** A page for link completion: its repository path, site URL, title and heading anchors. */
export interface LinkTarget { path: string; url: string; title: string; headings: { id: string; text: string; depth: number }[] }

/** What the extensions need from the editor API of one project. */
export interface ExtensionsApi {
  /** `POST /assets`: stores a file as a draft under `public/`; answers where it is and its URL on the site. */
  uploadAsset(input: { name: string; content_base64: string; path?: string }): Promise<{ path: string; url: string }>;
  /** `GET /links`: every page with its URL and heading anchors, drafts included. */
  links(): Promise<{ pages: LinkTarget[] }>;
  /** `POST /validate-config`: the build's problems with a `docs.json` text. */
  validateConfig(content: string): Promise<{ problems: ConfigProblem[] }>;
}

/** An error answer of the API: the server's `{ error, message }` (the dashboard's own error type). */
export { ApiError as ExtensionsApiError } from '../../api.ts';

/**
 * `ExtensionsApi` over the dashboard's JSON calls (`requestJson`) against
 * `/dashboard/api/projects/:id/editor`: the session cookie, and `X-CSRF-Token` on writes.
 * `base` defaults to the dashboard's API root.
 */
export function fetchExtensionsApi(projectId: string, opts: { csrfToken: string | (() => string); base?: string }): ExtensionsApi {
  const root = `${opts.base ?? API_BASE}/projects/${encodeURIComponent(projectId)}/editor`;
  const csrf = () => (typeof opts.csrfToken === 'function' ? opts.csrfToken() : opts.csrfToken);
  return {
    uploadAsset: (input) => requestJson('POST', `${root}/assets`, input, csrf()),
    links: () => requestJson('GET', `${root}/links`),
    validateConfig: (content) => requestJson('POST', `${root}/validate-config`, { content }, csrf()),
  };
}
