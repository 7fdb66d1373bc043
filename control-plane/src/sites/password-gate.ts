/**
 * The site password gate, run by the site server before anything of a protected site is
 * answered: pages, `llms.txt`, `.md` exports, search files, assets, the assistant and MCP.
 *
 * - Without a valid cookie, GET and HEAD answer 401 with a small form (branded with the
 *   project's name); other methods (the assistant, MCP) answer 401 `password_required` as JSON.
 * - The form posts to `/_folio/password`; a right password sets the signed cookie
 *   (sites/site-password.ts) and redirects back (303) to the page asked for.
 * - Attempts are rate-limited per visitor address and site (`attempts` per `windowMs`), then 429
 *   with `Retry-After`.
 * - Everything of a protected site, the form included, is `Cache-Control: private` with
 *   `Vary: Cookie`, so a CDN in front never stores it and never serves it to another visitor.
 * The form wears the site's theme when it has a live build (`themed`, themed-page.ts), and the
 * few public files it loads (stylesheets, fonts, logo) are served without the password.
 * The plan is not read here: protection keeps working after a downgrade (quota rule 6). Only
 * the form's "Powered by Folio" badge follows the plan (`branding`, site-branding.ts).
 */
import type http from 'node:http';
import { visitorAddress } from '../http/client-address.ts';
import { VisitorRate } from '../http/visitor-rate.ts';
import type { Models } from '../db/models/index.ts';
import { AppError } from '../errors.ts';
import { escapeHtml } from '../http/escape-html.ts';
import { safeNext } from './safe-next.ts';
import type { SiteBranding } from './site-branding.ts';
import { isThemedAsset, type ThemedPages, type ThemedShell } from './themed-page.ts';
import { answerPage, framedPage, PLAIN_PAGE_CSP, type ReaderPage } from './reader-auth/reader-pages.ts';
import { checkSiteAuthCookie, readCookie, SITE_AUTH_COOKIE, siteAuthCookie, verifySitePassword } from './site-password.ts';

/** What a gate decided: answer freely, answer privately (protected and signed in), or it answered itself. */
export type GateResult = 'open' | 'private' | 'answered';
export type SiteGate = (req: http.IncomingMessage, res: http.ServerResponse, projectId: string) => Promise<GateResult>;

export const PASSWORD_PATH = '/_folio/password';
/** Cache-Control of every response of a protected site. */
export const PRIVATE_CACHE = 'private, no-store';

export interface PasswordGateOptions {
  m: Models;
  trustProxy: boolean;
  now?: () => Date;
  /** Password attempts per visitor and site per window; default 10 per 15 minutes. */
  attempts?: number;
  windowMs?: number;
  /** Whether the form shows the "Powered by Folio" badge; default never. */
  branding?: SiteBranding;
  /** The site's themed frame for the form (themed-page.ts); default the plain page. */
  themed?: ThemedPages;
}

/** The site a form is answered for. */
interface FormSite { name: string; branded: boolean; shell?: ThemedShell }


const MAX_FORM_BYTES = 4096;

/** The form and its message, the same in the plain and the themed page. */
function formBody(next: string, message: string | undefined): string {
  return `<p>This documentation is protected. Enter the password to continue.</p>
${message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post" action="${PASSWORD_PATH}">
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Continue</button>
</form>
`;
}

/** The form page, plain or themed; the badge is added as it is answered (`answerPage`). */
function formPage(site: FormSite, next: string, message: string | undefined): ReaderPage {
  const body = formBody(next, message);
  if (site.shell) return framedPage(site, 'password required', 'Password required', body);
  const name = escapeHtml(site.name);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${name} — password required</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,sans-serif;background:#f6f7f9;color:#1c1f24}
main{background:#fff;border:1px solid #dfe2e7;border-radius:12px;padding:2rem;width:min(22rem,90vw);box-shadow:0 2px 12px rgba(0,0,0,.05)}
h1{font-size:1.25rem;margin:0 0 .25rem}p{margin:0 0 1rem;color:#5b616b}
input{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #c9ced6;border-radius:8px;font:inherit}
button{margin-top:.75rem;width:100%;padding:.6rem;border:0;border-radius:8px;background:#1c1f24;color:#fff;font:inherit;cursor:pointer}
.error{color:#b42318}
@media (prefers-color-scheme:dark){body{background:#111316;color:#e8eaed}main{background:#1a1d21;border-color:#2c3036}input{background:#111316;color:#e8eaed;border-color:#3a3f46}button{background:#e8eaed;color:#111316}p{color:#a0a6ae}}
</style></head>
<body><main>
<h1>${name}</h1>
${body}</main></body></html>
`;
  return { html, csp: PLAIN_PAGE_CSP };
}

function privateHeaders(res: http.ServerResponse): void {
  res.setHeader('Cache-Control', PRIVATE_CACHE);
  res.setHeader('Vary', 'Cookie');
  res.setHeader('X-Robots-Tag', 'noindex');
}

function answerForm(req: http.IncomingMessage, res: http.ServerResponse, status: number, site: FormSite, next: string, message?: string): void {
  answerPage(req, res, status, formPage(site, next, message), site.branded);
}

function answerJson(res: http.ServerResponse, status: number, body: { error: string; message: string }, headers: Record<string, string> = {}): void {
  res.statusCode = status;
  privateHeaders(res);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.end(JSON.stringify(body));
}

function readForm(req: http.IncomingMessage): Promise<URLSearchParams | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_FORM_BYTES) { resolve(undefined); req.destroy(); return; }
      chunks.push(c);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', () => resolve(undefined));
  });
}

function isHttps(req: http.IncomingMessage, trustProxy: boolean): boolean {
  return Boolean((req.socket as { encrypted?: boolean }).encrypted) || (trustProxy && String(req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim() === 'https');
}

/** The gate for every site host (see the module comment). */
export function passwordGate(opts: PasswordGateOptions): SiteGate {
  const now = opts.now ?? (() => new Date());
  const visitorOf = visitorAddress(opts.trustProxy);
  const rate = new VisitorRate({ visitorMessages: opts.attempts ?? 10, visitorWindowMs: opts.windowMs ?? 15 * 60_000 });

  async function signIn(req: http.IncomingMessage, res: http.ServerResponse, project: FormSite & { _id: string; site_password_hash: string; site_password_set_at: Date }): Promise<void> {
    const form = await readForm(req);
    const next = safeNext(form?.get('next') ?? undefined);
    try {
      rate.take(`${visitorOf(req)}\n${project._id}`, now().getTime());
    } catch (err) {
      const wait = err instanceof AppError ? err.headers?.['Retry-After'] ?? '60' : '60';
      res.setHeader('Retry-After', wait);
      return answerForm(req, res, 429, project, next, `Too many attempts; try again in ${wait} s`);
    }
    const password = form?.get('password') ?? '';
    if (!password || !await verifySitePassword(password, project.site_password_hash)) {
      return answerForm(req, res, 401, project, next, 'That password is not right; try again');
    }
    const cookie = await siteAuthCookie(opts.m, project._id, project.site_password_set_at, now().getTime());
    res.statusCode = 303;
    privateHeaders(res);
    res.setHeader('Set-Cookie', `${SITE_AUTH_COOKIE}=${cookie.value}; Path=/; Max-Age=${cookie.maxAgeSeconds}; HttpOnly; SameSite=Lax${isHttps(req, opts.trustProxy) ? '; Secure' : ''}`);
    res.setHeader('Location', next);
    res.end();
  }

  return async (req, res, projectId) => {
    const project = await opts.m.Project.findById(projectId, { name: 1, site_password_hash: 1, site_password_set_at: 1 }).lean();
    if (!project?.site_password_hash || !project.site_password_set_at) return 'open';
    const url = new URL(req.url ?? '/', 'http://site');
    // Read only for the form and its files, not for a visitor who has the password.
    const { site_password_hash: hash, site_password_set_at: setAt } = project;
    const protectedProject = async () => ({ _id: project._id, name: project.name, branded: opts.branding ? await opts.branding(projectId) : false, shell: await opts.themed?.(projectId), site_password_hash: hash, site_password_set_at: setAt });
    if (url.pathname === PASSWORD_PATH) {
      if (req.method === 'POST') await signIn(req, res, await protectedProject());
      else answerForm(req, res, req.method === 'HEAD' || req.method === 'GET' ? 200 : 405, await protectedProject(), '/');
      return 'answered';
    }
    if (await checkSiteAuthCookie(opts.m, project._id, project.site_password_set_at, readCookie(req.headers.cookie, SITE_AUTH_COOKIE), now().getTime())) return 'private';
    if (req.method === 'GET' || req.method === 'HEAD') {
      const site = await protectedProject();
      // The form's own files (the build's stylesheets and fonts, the logo) load without the password.
      if (isThemedAsset(site.shell, url.pathname)) return 'private';
      answerForm(req, res, 401, site, url.pathname + url.search);
    } else answerJson(res, 401, { error: 'password_required', message: 'This site is password protected; sign in at /_folio/password first' });
    return 'answered';
  };
}
