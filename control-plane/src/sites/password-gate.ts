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
 * The plan is not read here: protection keeps working after a downgrade (quota rule 6). Only
 * the form's "Powered by Folio" badge follows the plan (`branding`, site-branding.ts).
 */
import type http from 'node:http';
import { visitorAddress } from '../http/client-address.ts';
import { VisitorRate } from '../http/visitor-rate.ts';
import type { Models } from '../db/models/index.ts';
import { AppError } from '../errors.ts';
import { escapeHtml } from '../http/escape-html.ts';
import { POWERED_BY_HTML } from '@folio/site-template/shared/powered-by.ts';
import { safeNext } from './safe-next.ts';
import type { SiteBranding } from './site-branding.ts';
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
}

const MAX_FORM_BYTES = 4096;

function formPage(siteName: string, next: string, message: string | undefined, branded: boolean): string {
  const name = escapeHtml(siteName);
  return `<!doctype html>
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
<p>This documentation is protected. Enter the password to continue.</p>
${message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post" action="${PASSWORD_PATH}">
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Continue</button>
</form>
${branded ? POWERED_BY_HTML : ''}</main></body></html>
`;
}

function privateHeaders(res: http.ServerResponse): void {
  res.setHeader('Cache-Control', PRIVATE_CACHE);
  res.setHeader('Vary', 'Cookie');
  res.setHeader('X-Robots-Tag', 'noindex');
}

function answerForm(req: http.IncomingMessage, res: http.ServerResponse, status: number, site: { name: string; branded: boolean }, next: string, message?: string): void {
  const body = Buffer.from(formPage(site.name, next, message, site.branded));
  res.statusCode = status;
  privateHeaders(res);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
  res.setHeader('Content-Length', body.byteLength);
  res.end(req.method === 'HEAD' ? undefined : body);
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

  async function signIn(req: http.IncomingMessage, res: http.ServerResponse, project: { _id: string; name: string; branded: boolean; site_password_hash: string; site_password_set_at: Date }): Promise<void> {
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
    const protectedProject = { _id: project._id, name: project.name, branded: opts.branding ? await opts.branding(projectId) : false, site_password_hash: project.site_password_hash, site_password_set_at: project.site_password_set_at };
    if (url.pathname === PASSWORD_PATH) {
      if (req.method === 'POST') await signIn(req, res, protectedProject);
      else answerForm(req, res, req.method === 'HEAD' || req.method === 'GET' ? 200 : 405, protectedProject, '/');
      return 'answered';
    }
    if (await checkSiteAuthCookie(opts.m, project._id, project.site_password_set_at, readCookie(req.headers.cookie, SITE_AUTH_COOKIE), now().getTime())) return 'private';
    if (req.method === 'GET' || req.method === 'HEAD') answerForm(req, res, 401, protectedProject, url.pathname + url.search);
    else answerJson(res, 401, { error: 'password_required', message: 'This site is password protected; sign in at /_folio/password first' });
    return 'answered';
  };
}
