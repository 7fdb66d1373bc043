/**
 * Serves the built dashboard app at `/` of the API host (and of the `DASHBOARD_URL` host, which a
 * proxy points at the same server): hashed assets under `/assets/` with a year-long immutable
 * cache, and `index.html` (never cached, so a deploy is picked up at once) for the app's client
 * routes. Only the app's own route prefixes fall back to `index.html`; any other unknown path
 * keeps the API's `404 not_found`. Files are looked up in the build's list, never by joining the
 * request path onto a folder, so no request reaches a file outside the build.
 */
import { createReadStream } from 'node:fs';
import { extname, join } from 'node:path';
import type Koa from 'koa';
import { allowAt } from '../http/method-guard.ts';
import { dashboardBuild, type DashboardBuild } from './build-dashboard.ts';

/** Paths the app routes itself (see `dashboard-app/src/app.tsx`). */
const CLIENT_ROUTES = /^\/(?:|sign-in|claim|accept-invite|projects(?:\/.*)?|settings(?:\/.*)?)$/;

/**
 * The dashboard's Content-Security-Policy: only its own scripts, styles and API. Inline styles set
 * through the CSSOM (charts) are not covered by `style-src`, so no `unsafe-inline` is needed.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "font-src 'self'",
  "connect-src 'self'", "frame-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2', '.json': 'application/json',
};

export interface DashboardStaticOptions {
  /** The build to serve; default: built on the first request (see `dashboardBuild`). */
  build?: () => Promise<DashboardBuild>;
}

/** Koa middleware serving the dashboard; mount it after every router so API paths win. */
export function dashboardStatic(opts: DashboardStaticOptions = {}): Koa.Middleware {
  const getBuild = opts.build ?? (() => dashboardBuild());
  return async (ctx, next) => {
    const asset = ctx.path.startsWith('/assets/') ? ctx.path.slice(1) : undefined;
    if (!asset && !CLIENT_ROUTES.test(ctx.path)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      // An app page takes only GET and HEAD (405 with Allow); an asset path stays a plain 404.
      if (!asset) allowAt(ctx, ['GET', 'HEAD']);
      return next();
    }
    const build = await getBuild();
    if (asset && !build.files.includes(asset)) return next();
    const file = asset ?? 'index.html';
    ctx.set('Content-Security-Policy', DASHBOARD_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    // One-time tokens travel in the URL fragment, which browsers never send; this also keeps paths private.
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('Cache-Control', asset ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.type = TYPES[extname(file)] ?? 'application/octet-stream';
    ctx.status = 200;
    ctx.body = createReadStream(join(build.dir, file));
  };
}
