/**
 * Serves the web editor's previews at `/editor-preview/<token>/<page path>` on the API host: the
 * project's built preview (previews.ts) the way the site server serves a site (clean URLs,
 * redirects, `.md` exports, 404 page), with every link under the token's path, and the dev
 * client's script and events (`_folio/dev/client.js`, `_folio/dev/events`) so an open frame
 * swaps its content when the page is rebuilt.
 *
 * The page is customer code: every answer carries `Content-Security-Policy: sandbox
 * allow-scripts allow-popups allow-forms` (an opaque origin: no cookie of the dashboard is ever
 * sent with its requests, nothing of the dashboard is readable from it) and a second policy that
 * lets only the dashboard frame it, lets it fetch only below its own token's path and frame only
 * the origins the site declares. Answers are never stored (`no-store`), never indexed, never
 * sent as a referrer. A forged, altered or expired token, or one of a member no longer in the
 * project's organization, is a plain 404.
 */
import type Koa from 'koa';
import { candidateKeys, contentTypeFor, createLocalDirStore, matchRedirect, previewClientScript, readSiteHeaders, wantsMarkdown, HEADERS_KEY, type RedirectRule } from '@folio/builder';
import type { Deps } from '../../http/route.ts';
import { editorPreviews, PREVIEW_BASE } from './previews.ts';
import { readPreviewToken } from './preview-token.ts';

/** Where previews are served. */
export const PREVIEW_PREFIX = '/editor-preview/';

/** The policy that makes a preview an opaque origin (the iframe's `sandbox` attribute says the same). */
export const PREVIEW_SANDBOX = 'sandbox allow-scripts allow-popups allow-forms';

const TEXT = /^(text\/|application\/(json|javascript|xml|rss\+xml|atom\+xml|manifest\+json))/;
/** The builder's own state: never served. */
const PRIVATE = /^_folio\/(cache\/|manifest|summaries|state\/)/;

/** The frame sources of the site's own policy, without `'self'` or the API host (its pages are the dashboard's). */
function siteFrameSources(siteCsp: string | undefined, apiOrigin: string): string {
  const directive = siteCsp?.split(';').map((d) => d.trim()).find((d) => d.startsWith('frame-src '));
  const sources = directive?.split(/\s+/).slice(1).filter((s) => s !== "'self'" && s.replace(/\/+$/, '') !== apiOrigin) ?? [];
  return sources.length ? sources.join(' ') : "'none'";
}

/** Koa middleware answering `/editor-preview/…`; everything else goes on. */
export function editorPreviewPages(deps: Deps): Koa.Middleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(PREVIEW_PREFIX)) return next();
    const notFound = () => {
      ctx.status = 404;
      ctx.set('Cache-Control', 'no-store');
      ctx.set('X-Robots-Tag', 'noindex');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Not found\n';
    };
    const rest = ctx.path.slice(PREVIEW_PREFIX.length);
    const slash = rest.indexOf('/');
    const token = slash < 0 ? rest : rest.slice(0, slash);
    const grant = token.length <= 1024 ? await readPreviewToken(deps.m, token, deps.now()) : undefined;
    if (!grant) { notFound(); return; }
    const project = await deps.m.Project.findById(grant.projectId).lean();
    if (!project) { notFound(); return; }
    // A member who left the organization (or was removed) sees nothing more, token or not.
    if (!(await deps.m.Membership.exists({ org_id: project.org_id, user_id: grant.userId }))) { notFound(); return; }
    const base = `${PREVIEW_PREFIX}${token}`;
    if (slash < 0) { ctx.redirect(`${base}/`); ctx.set('Cache-Control', 'no-store'); return; }
    const pagePath = rest.slice(slash);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') { ctx.status = 405; ctx.set('Allow', 'GET, HEAD'); return; }
    const previews = editorPreviews(deps);
    previews.touch(grant.projectId);
    const store = createLocalDirStore(previews.storeDir(grant.projectId));
    const siteHeaders = readSiteHeaders(await store.get(HEADERS_KEY).catch(() => undefined));
    const apiOrigin = new URL(deps.env.publicApiUrl).origin;
    const policy = [
      "frame-ancestors 'self'",
      `connect-src ${apiOrigin}${base}/`,
      `frame-src ${siteFrameSources(siteHeaders['Content-Security-Policy'], apiOrigin)}`,
      `form-action ${apiOrigin}${base}/`,
    ].join('; ');
    const common = (type: string) => {
      ctx.set('Content-Security-Policy', [PREVIEW_SANDBOX, policy, ...(type.startsWith('text/html') && siteHeaders['Content-Security-Policy'] ? [siteHeaders['Content-Security-Policy']] : [])]);
      ctx.set('Cache-Control', 'no-store');
      ctx.set('X-Robots-Tag', 'noindex');
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.set('X-Content-Type-Options', 'nosniff');
      // An opaque origin's module scripts, events and fetches are cross-origin requests: readable
      // by it (and by whoever holds the token) only, never with credentials.
      ctx.set('Access-Control-Allow-Origin', '*');
    };

    if (pagePath === '/_folio/dev/client.js') {
      common('text/javascript');
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = previewClientScript();
      return;
    }
    if (pagePath === '/_folio/dev/events') {
      common('text/event-stream');
      ctx.respond = false;
      const res = ctx.res;
      res.writeHead(200, { ...Object.fromEntries(Object.entries(ctx.response.headers).map(([k, v]) => [k, v as string | string[]])), 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
      const write = (type: string, data: unknown) => { res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`); };
      res.write('retry: 1000\n\n');
      write('problems', { type: 'problems', problems: previews.problems(grant.projectId) });
      const stop = previews.subscribe(grant.projectId, (event) => write(event.type, event));
      // Until the token expires: the frame's next request needs a new one anyway.
      const expiry = setTimeout(() => res.end(), Math.min(grant.expiresAt.getTime() - deps.now().getTime(), 2 ** 31 - 1));
      const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 25_000);
      ctx.req.on('close', () => { stop(); clearTimeout(expiry); clearInterval(keepAlive); });
      return;
    }

    const send = async (key: string, status = 200): Promise<boolean> => {
      if (PRIVATE.test(key)) return false;
      const bytes = await store.get(key).catch(() => undefined);
      if (bytes === undefined) return false;
      const type = contentTypeFor(key);
      let body = Buffer.from(bytes);
      if (TEXT.test(type)) {
        let text = body.toString('utf8').replaceAll(PREVIEW_BASE, base);
        if (type.startsWith('text/html')) text = text.replace(/<\/body>(?![\s\S]*<\/body>)/, `<script type="module" src="${base}/_folio/dev/client.js"></script></body>`);
        body = Buffer.from(text, 'utf8');
      }
      common(type);
      ctx.status = status;
      ctx.type = type;
      ctx.body = ctx.method === 'HEAD' ? null : body;
      if (ctx.method === 'HEAD') ctx.length = body.byteLength;
      return true;
    };

    const keys = candidateKeys(pagePath, wantsMarkdown(ctx.get('accept') || undefined));
    if (!keys) { notFound(); return; }
    const redirectBytes = await store.get('_redirects.json').catch(() => undefined);
    let rules: RedirectRule[];
    try { rules = redirectBytes ? JSON.parse(Buffer.from(redirectBytes).toString('utf8')) as RedirectRule[] : []; } catch { rules = []; }
    // Sources and destinations may carry the preview's base path (as a site under a path has them).
    const rule = matchRedirect(rules, pagePath) ?? matchRedirect(rules, `${PREVIEW_BASE}${pagePath}`);
    if (rule) {
      common('text/plain');
      const dest = rule.destination;
      const to = dest.startsWith(`${PREVIEW_BASE}/`) ? `${base}${dest.slice(PREVIEW_BASE.length)}` : dest.startsWith('/') ? `${base}${dest}` : dest;
      ctx.status = rule.status;
      ctx.set('Location', to + ctx.search);
      return;
    }
    for (const key of keys) if (await send(key)) return;
    if (await send('404.html', 404)) return;
    notFound();
  };
}
