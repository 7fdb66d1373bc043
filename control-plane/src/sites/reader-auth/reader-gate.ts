/**
 * The gate of every site host: the site password (password-gate.ts) or reader authentication,
 * whichever the project has. With reader authentication:
 *
 * - `/_folio/sign-in` shows the sign-in page; `/_folio/sign-in/start` starts the provider's
 *   sign-in (OIDC) or sends the reader to the customer's sign-in page (JWT) with
 *   `redirect_uri=<site>/_folio/auth/jwt?next=…`; `/_folio/auth/callback` (OIDC) and
 *   `/_folio/auth/jwt` (JWT) sign the reader in and go back (same site only, safe-next.ts);
 *   `/_folio/sign-out` ends the session.
 * - A reader with a session reads the sites of their audiences (the builder's per-audience
 *   outputs: each group of theirs, then every signed-in reader's), privately; the site's own
 *   prefix holds only the public pages.
 * - Without a session: `full` sends every page to the sign-in page (the assistant and MCP answer
 *   401 `sign_in_required`); `partial` serves the public site, and a path it lacks goes to the
 *   sign-in page, whether or not a gated page is there (so nothing is told).
 * - Until a build made with sign-in on is live (live-build.ts, decision 117), no page is served:
 *   a reader without a session goes to the sign-in page, one with a session gets a 503 to retry.
 * - These pages wear the site's theme (`themed`, themed-page.ts), and the few public files they
 *   load (stylesheets, fonts, logo) are served without a session.
 */
import type http from 'node:http';
import { audiencePrefix } from '@folio/builder';
import type { Models } from '../../db/models/index.ts';
import { safeNext } from '../safe-next.ts';
import type { GateResult, SiteGate } from '../password-gate.ts';
import type { SiteBranding } from '../site-branding.ts';
import { isThemedAsset, type ThemedPages, type ThemedShell } from '../themed-page.ts';
import { readCookie } from '../site-password.ts';
import { TokenRefused, verifyHandoff } from './jwt-handoff.ts';
import { finishReaderOidc, OIDC_STATE_COOKIE, startReaderOidc } from './oidc-reader.ts';
import { liveBuildIsPerAudience } from './live-build.ts';
import { answerPage, refusedPage, republishingPage, signInPage } from './reader-pages.ts';
import { JWT_HANDOFF_PATH, OIDC_CALLBACK_PATH } from './reader-settings.ts';
import { clearReaderCookie, groupsFromClaim, isHttps, readerSessionCookie, readerSessionOf } from './reader-session.ts';

/** A reader's access: the audiences' prefixes (relative to the site) to read, in order. */
export interface ReaderAccess {
  audiences: string[];
  signedIn: boolean;
  /** Answers a path none of the audiences has (an anonymous reader goes to the sign-in page). */
  onMiss?(req: http.IncomingMessage, res: http.ServerResponse): void;
}
export type SiteAccess = GateResult | ReaderAccess;
export type AccessGate = (req: http.IncomingMessage, res: http.ServerResponse, projectId: string) => Promise<SiteAccess>;

export const SIGN_IN_PATH = '/_folio/sign-in';
export const SIGN_IN_START_PATH = '/_folio/sign-in/start';
export const SIGN_OUT_PATH = '/_folio/sign-out';
/** What a signed-in reader reads while the site is rebuilt for new sign-in settings, and when to retry. */
const REPUBLISHING = 'This site is being published again for its new sign-in settings; try again in a minute.';
const REPUBLISH_RETRY_S = 30;

export interface ReaderGateOptions {
  m: Models;
  trustProxy: boolean;
  /** The site password's gate, for projects with a password. */
  password: SiteGate;
  now?: () => Date;
  /** `host:port` the SSRF guard lets through (tests' providers on 127.0.0.1). */
  allowHosts?: () => readonly string[];
  /** Whether the sign-in pages show the "Powered by Folio" badge (site-branding.ts); default never. */
  branding?: SiteBranding;
  /** The site's themed frame for the sign-in pages (themed-page.ts); default the plain pages. */
  themed?: ThemedPages;
}

function redirect(res: http.ServerResponse, location: string, cookies: string[] = []): void {
  res.statusCode = 303;
  res.setHeader('Cache-Control', 'private, no-store');
  res.setHeader('Vary', 'Cookie');
  if (cookies.length) res.setHeader('Set-Cookie', cookies);
  res.setHeader('Location', location);
  res.end();
}

const signInHref = (next: string) => `${SIGN_IN_PATH}?next=${encodeURIComponent(next)}`;

export function readerGate(opts: ReaderGateOptions): AccessGate {
  const now = opts.now ?? (() => new Date());
  const allowHosts = () => opts.allowHosts?.() ?? [];

  return async (req, res, projectId) => {
    const project = await opts.m.Project.findById(projectId, { name: 1, reader_auth: 1, reader_access_secret: 1 }).lean();
    const settings = project?.reader_auth;
    if (!project || !settings?.mode || !settings.set_at || !project.reader_access_secret) return opts.password(req, res, projectId);
    const setAt = new Date(settings.set_at);
    const url = new URL(req.url ?? '/', 'http://site');
    const secure = isHttps(req, opts.trustProxy);
    const origin = `${secure ? 'https' : 'http'}://${req.headers.host}`;
    const next = safeNext(url.searchParams.get('next'));
    const branded = opts.branding ? await opts.branding(projectId) : false;
    // Read only when a page of the gate is answered (or may be one of its files): most requests are pages.
    let shell: Promise<ThemedShell | undefined> | undefined;
    const frame = async () => ({ name: project.name, shell: await (shell ??= opts.themed?.(projectId) ?? Promise.resolve(undefined)) });
    const refuse = async (reason: string) => answerPage(req, res, 401, refusedPage(await frame(), reason, signInHref(next)), branded);
    /** Runs a sign-in step; a refusal (or any failure) answers the refusal page. */
    const attempt = async (step: () => Promise<void>, otherwise: string) => {
      try {
        await step();
      } catch (err) {
        await refuse(err instanceof TokenRefused ? err.message : otherwise);
      }
    };
    const signIn = async (claims: Record<string, unknown>, to: string, extra: string[] = []) => {
      const groups = groupsFromClaim(claims[settings.groups_claim ?? 'groups']);
      redirect(res, safeNext(to), [await readerSessionCookie(opts.m, projectId, setAt, groups, now().getTime(), secure), ...extra]);
    };

    switch (url.pathname) {
      case SIGN_IN_PATH:
        answerPage(req, res, 200, signInPage(await frame(), `${SIGN_IN_START_PATH}?next=${encodeURIComponent(next)}`), branded);
        return 'answered';
      case SIGN_IN_START_PATH:
        if (settings.mode === 'jwt') {
          const target = new URL(settings.login_url!);
          target.searchParams.set('redirect_uri', `${origin}${JWT_HANDOFF_PATH}?next=${encodeURIComponent(next)}`);
          redirect(res, target.href);
          return 'answered';
        }
        await attempt(async () => {
          const started = await startReaderOidc(opts.m, settings, origin, next, now(), allowHosts());
          redirect(res, started.url, [`${OIDC_STATE_COOKIE}=${started.cookie}; Path=${OIDC_CALLBACK_PATH}; Max-Age=600; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`]);
        }, 'The sign-in could not start; try again later.');
        return 'answered';
      case OIDC_CALLBACK_PATH:
        if (settings.mode !== 'oidc') break;
        await attempt(async () => {
          const done = await finishReaderOidc(opts.m, settings, origin, url.searchParams, readCookie(req.headers.cookie, OIDC_STATE_COOKIE), now(), allowHosts());
          await signIn(done.claims, done.next, [`${OIDC_STATE_COOKIE}=; Path=${OIDC_CALLBACK_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`]);
        }, 'The sign-in could not be completed; try again later.');
        return 'answered';
      case JWT_HANDOFF_PATH:
        if (settings.mode !== 'jwt') break;
        await attempt(async () => signIn(await verifyHandoff(opts.m, settings, url.searchParams.get('token') ?? '', now(), allowHosts()) as Record<string, unknown>, next), 'The sign-in token could not be checked; try again later.');
        return 'answered';
      case SIGN_OUT_PATH:
        redirect(res, '/', [clearReaderCookie(secure)]);
        return 'answered';
      default:
    }

    const toSignIn = (rq: http.IncomingMessage, rs: http.ServerResponse) => {
      if (rq.method === 'GET' || rq.method === 'HEAD') redirect(rs, signInHref(url.pathname + url.search));
      else {
        rs.statusCode = 401;
        rs.setHeader('Cache-Control', 'private, no-store');
        rs.setHeader('Content-Type', 'application/json; charset=utf-8');
        rs.end(JSON.stringify({ error: 'sign_in_required', message: `This site is for signed-in readers; sign in at ${SIGN_IN_PATH} first` }));
      }
    };
    const session = await readerSessionOf(opts.m, req, projectId, setAt, now().getTime());
    // The themed pages' own files (public: the builder's stylesheets and fonts, the logo) load for
    // anyone, where everything else needs a session (`full`, or before a build per audience is live).
    const themedAsset = async () => !session && (req.method === 'GET' || req.method === 'HEAD') && isThemedAsset((await frame()).shell, url.pathname);
    const secret = project.reader_access_secret;
    // Until a build per audience is live, the public prefix may hold every page (live-build.ts):
    // nothing of it is served; a signed-in reader is asked to come back once it is published.
    if (!await liveBuildIsPerAudience(opts.m, projectId)) {
      if (await themedAsset()) return { signedIn: false, audiences: [] };
      if (!session) {
        toSignIn(req, res);
        return 'answered';
      }
      res.setHeader('Retry-After', String(REPUBLISH_RETRY_S));
      answerPage(req, res, 503, republishingPage(await frame(), REPUBLISHING, safeNext(url.pathname + url.search)), branded);
      return 'answered';
    }
    if (session) {
      return { signedIn: true, audiences: [...session.groups.map((g) => audiencePrefix(secret, `group:${g}`)), audiencePrefix(secret, 'members')] };
    }
    if (settings.scope === 'full') {
      if (await themedAsset()) return { signedIn: false, audiences: [] };
      toSignIn(req, res);
      return 'answered';
    }
    return { signedIn: false, audiences: [], onMiss: toSignIn };
  };
}
