/**
 * The pages a reader sees around signing in: the sign-in page and the refusal page. They name
 * the site and nothing of its content (no page title, no navigation), are never cached or
 * indexed, and run no script. With a live build they wear the site's theme (its header, logo,
 * colours, fonts and footer: themed-page.ts); without one, a plain page with the site's name. On free and pro the "Powered by Folio" badge sits under the form
 * (`branded`, sites/site-branding.ts); on team and enterprise nothing names the platform.
 */
import type http from 'node:http';
import { POWERED_BY_HTML } from '@folio/site-template/shared/powered-by.ts';
import { escapeHtml } from '../../http/escape-html.ts';
import type { ThemedShell } from '../themed-page.ts';

/** What a reader page is framed by: the site's name, and its themed shell when it has one. */
export interface PageFrame {
  name: string;
  shell?: ThemedShell;
}

/** A page to answer, with the policy it is sent under. */
export interface ReaderPage {
  html: string;
  csp: string;
}

/** The policy of the plain pages: their inline style, and forms to the site only. */
export const PLAIN_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'";

const STYLE = `body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,sans-serif;background:#f6f7f9;color:#1c1f24}
main{background:#fff;border:1px solid #dfe2e7;border-radius:12px;padding:2rem;width:min(24rem,90vw);box-shadow:0 2px 12px rgba(0,0,0,.05)}
h1{font-size:1.25rem;margin:0 0 .25rem}p{margin:0 0 1rem;color:#5b616b}.error{color:#b42318}
a.button{display:block;text-align:center;margin-top:.75rem;padding:.6rem;border-radius:8px;background:#1c1f24;color:#fff;text-decoration:none}
@media (prefers-color-scheme:dark){body{background:#111316;color:#e8eaed}main{background:#1a1d21;border-color:#2c3036}a.button{background:#e8eaed;color:#111316}p{color:#a0a6ae}}`;

function plain(siteName: string, title: string, body: string): string {
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

/**
 * A page of the site: in its theme when `frame.shell` is there (the heading names what the page is
 * for, the header already names the site), else the plain page. `body` is HTML escaped by the caller.
 */
export function framedPage(frame: PageFrame, title: string, heading: string, body: string): ReaderPage {
  if (!frame.shell) return { html: plain(frame.name, title, body), csp: PLAIN_PAGE_CSP };
  return { html: frame.shell.html(`${frame.name} — ${title}`, `<h1>${escapeHtml(heading)}</h1>\n${body}`), csp: frame.shell.csp };
}

/** Sends a reader page with the headers of everything private; `branded` adds the badge. */
export function answerPage(req: http.IncomingMessage, res: http.ServerResponse, status: number, page: ReaderPage, branded = false): void {
  const body = Buffer.from(branded ? page.html.replace('</main>', `${POWERED_BY_HTML}</main>`) : page.html);
  res.statusCode = status;
  res.setHeader('Cache-Control', 'private, no-store');
  res.setHeader('Vary', 'Cookie');
  res.setHeader('X-Robots-Tag', 'noindex');
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', page.csp);
  res.setHeader('Content-Length', body.byteLength);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The sign-in page: one button to the provider (or the customer's sign-in page). */
export function signInPage(frame: PageFrame, startHref: string): ReaderPage {
  return framedPage(frame, 'sign in', 'Sign in', `<p>This documentation is for signed-in readers. Sign in to continue.</p>
<a class="button" id="sign-in" href="${escapeHtml(startHref)}">Sign in</a>`);
}

/** A refused sign-in: what went wrong, and the way back. */
export function refusedPage(frame: PageFrame, reason: string, retryHref: string): ReaderPage {
  return framedPage(frame, 'sign-in refused', 'Sign-in refused', `<p class="error" role="alert">${escapeHtml(reason)}</p>
<a class="button" href="${escapeHtml(retryHref)}">Sign in again</a>`);
}

/** The answer of a signed-in reader while the site is published again (decision 117): wait, then retry. */
export function republishingPage(frame: PageFrame, message: string, retryHref: string): ReaderPage {
  return framedPage(frame, 'being published', 'Being published', `<p role="status">${escapeHtml(message)}</p>
<a class="button" href="${escapeHtml(retryHref)}">Try again</a>`);
}
