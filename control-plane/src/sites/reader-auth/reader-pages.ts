/**
 * The pages a reader sees around signing in: the sign-in page and the refusal page. They name
 * the site and nothing of its content (no page title, no navigation), are never cached or
 * indexed, and run no script. On free and pro the "Powered by Folio" badge sits under the form
 * (`branded`, sites/site-branding.ts); on team and enterprise nothing names the platform.
 */
import type http from 'node:http';
import { POWERED_BY_HTML } from '@folio/site-template/shared/powered-by.ts';
import { escapeHtml } from '../../http/escape-html.ts';

const STYLE = `body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,sans-serif;background:#f6f7f9;color:#1c1f24}
main{background:#fff;border:1px solid #dfe2e7;border-radius:12px;padding:2rem;width:min(24rem,90vw);box-shadow:0 2px 12px rgba(0,0,0,.05)}
h1{font-size:1.25rem;margin:0 0 .25rem}p{margin:0 0 1rem;color:#5b616b}.error{color:#b42318}
a.button{display:block;text-align:center;margin-top:.75rem;padding:.6rem;border-radius:8px;background:#1c1f24;color:#fff;text-decoration:none}
@media (prefers-color-scheme:dark){body{background:#111316;color:#e8eaed}main{background:#1a1d21;border-color:#2c3036}a.button{background:#e8eaed;color:#111316}p{color:#a0a6ae}}`;

function page(siteName: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(siteName)} — ${escapeHtml(title)}</title>
<style>${STYLE}</style></head>
<body><main>
<h1>${escapeHtml(siteName)}</h1>
${body}
</main></body></html>
`;
}

/** Sends a reader page with the headers of everything private; `branded` adds the badge. */
export function answerPage(req: http.IncomingMessage, res: http.ServerResponse, status: number, html: string, branded = false): void {
  const body = Buffer.from(branded ? html.replace('</main>', `${POWERED_BY_HTML}</main>`) : html);
  res.statusCode = status;
  res.setHeader('Cache-Control', 'private, no-store');
  res.setHeader('Vary', 'Cookie');
  res.setHeader('X-Robots-Tag', 'noindex');
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
  res.setHeader('Content-Length', body.byteLength);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The sign-in page: one button to the provider (or the customer's sign-in page). */
export function signInPage(siteName: string, startHref: string): string {
  return page(siteName, 'sign in', `<p>This documentation is for signed-in readers. Sign in to continue.</p>
<a class="button" id="sign-in" href="${escapeHtml(startHref)}">Sign in</a>`);
}

/** A refused sign-in: what went wrong, and the way back. */
export function refusedPage(siteName: string, reason: string, retryHref: string): string {
  return page(siteName, 'sign-in refused', `<p class="error" role="alert">${escapeHtml(reason)}</p>
<a class="button" href="${escapeHtml(retryHref)}">Sign in again</a>`);
}
