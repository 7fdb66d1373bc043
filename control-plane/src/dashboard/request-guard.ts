/**
 * Checks every request under `/dashboard/api` makes before any route sees it, sign-in included,
 * against cross-site request forgery (login CSRF too) and its variants:
 *
 * - A request with a body must say `Content-Type: application/json` (charset utf-8 if any), else
 *   `415 unsupported_media_type`. A cross-site form or a no-CORS `fetch` can send only
 *   `text/plain`, `application/x-www-form-urlencoded`, `multipart/form-data` or (with a Blob
 *   body) no type at all; anything else needs a CORS preflight.
 * - POST, PUT, PATCH and DELETE are `403 csrf_failed` when the browser says they come from
 *   elsewhere: `Sec-Fetch-Site` other than `same-origin` or `none` (`same-site` too: tenants'
 *   sites live on sibling subdomains of SITES_DOMAIN), or an `Origin` (`null` included) other
 *   than the dashboard's own: DASHBOARD_URL's and the API's (PUBLIC_API_URL's) origins.
 *   The allowed origins come from the configuration, never from the request's Host or
 *   X-Forwarded-Host, so neither a forged header nor TRUST_PROXY can widen them.
 *
 * A request with neither header (curl, another server) passes these checks; it still needs the
 * session's X-CSRF-Token on every session route (requireSession), and the public calls (sign-in,
 * claim, invitations) take only JSON.
 */
import type Koa from 'koa';
import { dashboardOrigin, type Env } from '../env.ts';
import { AppError } from '../errors.ts';
import { UNSAFE_METHODS } from './session-auth.ts';

/** `Sec-Fetch-Site` values of a request the dashboard's own page (or the user, typing) made. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/** The origins the dashboard app runs at: DASHBOARD_URL's and the API's. */
export function dashboardOrigins(env: Env): string[] {
  return [...new Set([new URL(dashboardOrigin(env)).origin, new URL(env.publicApiUrl).origin])];
}

const csrfFailed = (message: string) => new AppError(403, 'csrf_failed', message);
const quote = (value: string, max: number) => JSON.stringify(value.slice(0, max));

function hasBody(ctx: Koa.Context): boolean {
  return Number(ctx.get('content-length') || 0) > 0 || Boolean(ctx.get('transfer-encoding'));
}

/** Throws 415 unless a request with a body says it is UTF-8 JSON. */
function assertJsonBody(ctx: Koa.Context): void {
  if (!hasBody(ctx)) return;
  const header = ctx.get('content-type');
  if (!header) throw new AppError(415, 'unsupported_media_type', 'Content-Type: Required for a request body; expected application/json');
  // type-is parses the header (case, spacing, parameters); an unparseable one does not match.
  if (ctx.is('application/json') !== 'application/json') {
    throw new AppError(415, 'unsupported_media_type', `Content-Type: Unexpected ${quote(ctx.request.type || header, 60)}; expected application/json`);
  }
  const charset = ctx.request.charset;
  if (charset && !/^utf-?8$/i.test(charset)) {
    throw new AppError(415, 'unsupported_media_type', `Content-Type: Unexpected charset ${quote(charset, 40)}; expected utf-8`);
  }
}

/** Throws 403 `csrf_failed` for a state change a browser says another site (or origin) made. */
function assertOwnOrigin(ctx: Koa.Context, env: Env): void {
  if (!UNSAFE_METHODS.has(ctx.method)) return;
  const site = ctx.get('sec-fetch-site');
  if (site && !OWN_FETCH_SITES.has(site.toLowerCase())) {
    throw csrfFailed(`Sec-Fetch-Site: Unexpected ${quote(site, 40)}; expected same-origin (the dashboard calls its API only from its own pages)`);
  }
  const origin = ctx.get('origin');
  if (origin) {
    const allowed = dashboardOrigins(env);
    if (!allowed.includes(origin.toLowerCase())) {
      throw csrfFailed(`Origin: Unexpected ${quote(origin, 100)}; expected ${allowed.join(' or ')}`);
    }
  }
}

/**
 * The one exemption: the SAML assertion consumer service (sso-sign-in-routes.ts), which the
 * identity provider's page reaches with a cross-site form POST by design (the SAML HTTP-POST
 * binding). Exactly `POST /dashboard/api/auth/sso/saml/<uuid>/acs` with a form body; the signed
 * assertion, its audience, InResponseTo and the replay store protect it instead. The route
 * itself takes no session and no cookie-borne authority, so a forged post can at most sign the
 * browser in as whoever the IdP signed an assertion for, which the replay store allows once.
 */
const SAML_ACS_PATH = /^\/dashboard\/api\/auth\/sso\/saml\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/acs$/;

function isSamlAcsPost(ctx: Koa.Context): boolean {
  return ctx.method === 'POST' && SAML_ACS_PATH.test(ctx.path) && ctx.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded';
}

/**
 * Runs the checks for one request under `/dashboard/api` (see the module comment): the origin
 * first, then the body type. `env` is read per request: the API's address is known only once
 * it listens.
 */
export function guardDashboardRequest(ctx: Koa.Context, env: Env): void {
  if (isSamlAcsPost(ctx)) return;
  assertOwnOrigin(ctx, env);
  assertJsonBody(ctx);
}
