/**
 * The three calls the editing extensions make, as an interface: the editor page passes its
 * project's client (`editor/api.ts`, which has these and more), and `fetchExtensionsApi` is a
 * small stand-alone implementation of the same routes for pages and tests without it.
 */

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

/** An error answer of the API: the server's `{ error, message }`. */
export class ExtensionsApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * `ExtensionsApi` over `fetch` against `/dashboard/api/projects/:id/editor`: JSON bodies, the
 * session cookie, and `X-CSRF-Token` on writes. `base` defaults to the dashboard's API root.
 */
export function fetchExtensionsApi(projectId: string, opts: { csrfToken: string | (() => string); base?: string }): ExtensionsApi {
  const root = `${opts.base ?? '/dashboard/api'}/projects/${encodeURIComponent(projectId)}/editor`;
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET') headers['x-csrf-token'] = typeof opts.csrfToken === 'function' ? opts.csrfToken() : opts.csrfToken;
    let res: Response;
    try {
      res = await fetch(root + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
    } catch {
      throw new ExtensionsApiError(0, 'network_error', 'The server could not be reached; check your connection and try again.');
    }
    const text = await res.text();
    let parsed: any;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!res.ok) {
      throw new ExtensionsApiError(res.status, typeof parsed?.error === 'string' ? parsed.error : 'http_error',
        typeof parsed?.message === 'string' ? parsed.message : `The server answered ${res.status}.`);
    }
    return parsed as T;
  };
  return {
    uploadAsset: (input) => call('POST', '/assets', input),
    links: () => call('GET', '/links'),
    validateConfig: (content) => call('POST', '/validate-config', { content }),
  };
}
