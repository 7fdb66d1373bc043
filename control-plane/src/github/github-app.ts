/**
 * The platform's GitHub App as configured by the operator (env.ts: GITHUB_APP_*), and the one
 * way this control plane talks to GitHub's REST API: App JWTs (RS256, signed with node:crypto),
 * installation tokens and the user-to-server OAuth exchange. Every customer repository is read
 * through an installation of this App that the customer made on their own account; there is no
 * platform-wide token.
 */
import { createSign } from 'node:crypto';
import type { Env } from '../env.ts';
import { AppError } from '../errors.ts';

/** The App's settings, present only when every GITHUB_APP_* variable is set. */
export interface GithubApp {
  appId: string;
  privateKey: string;
  slug: string;
  clientId: string;
  clientSecret: string;
  /** REST API base without a trailing slash (GITHUB_API_URL). */
  apiUrl: string;
  /** Web host without a trailing slash (GITHUB_BASE_URL): clones, install and OAuth links. */
  webUrl: string;
}

/** The configured App, or null when GitHub is off on this server. */
export function githubAppOf(env: Env): GithubApp | null {
  const { GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY, GITHUB_APP_SLUG, GITHUB_APP_CLIENT_ID, GITHUB_APP_CLIENT_SECRET } = env;
  if (!GITHUB_APP_ID || !GITHUB_APP_PRIVATE_KEY || !GITHUB_APP_SLUG || !GITHUB_APP_CLIENT_ID || !GITHUB_APP_CLIENT_SECRET) return null;
  return {
    appId: GITHUB_APP_ID, privateKey: GITHUB_APP_PRIVATE_KEY, slug: GITHUB_APP_SLUG, clientId: GITHUB_APP_CLIENT_ID, clientSecret: GITHUB_APP_CLIENT_SECRET,
    apiUrl: env.GITHUB_API_URL.replace(/\/+$/, ''), webUrl: env.GITHUB_BASE_URL.replace(/\/+$/, ''),
  };
}

/** Message of {@link requireGithubApp}'s error, also shown to builds of GitHub projects on such a server. */
export const GITHUB_OFF_MESSAGE = 'GitHub repositories are not enabled on this server: its operator has not configured a GitHub App (GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY, GITHUB_APP_SLUG, GITHUB_APP_CLIENT_ID, GITHUB_APP_CLIENT_SECRET)';

/** The configured App; 422 `github_not_configured` when there is none. */
export function requireGithubApp(env: Env): GithubApp {
  const app = githubAppOf(env);
  if (!app) throw new AppError(422, 'github_not_configured', GITHUB_OFF_MESSAGE);
  return app;
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * A JSON Web Token authenticating as the App itself (RS256): issued 60 s in the past, so a
 * clock slightly ahead of GitHub's is accepted, and valid 9 minutes (GitHub allows at most 10).
 */
export function appJwt(app: GithubApp, now: Date): string {
  const iat = Math.floor(now.getTime() / 1000) - 60;
  const input = `${b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${b64url(JSON.stringify({ iat, exp: iat + 60 + 9 * 60, iss: app.appId }))}`;
  const signature = createSign('RSA-SHA256').update(input).sign(app.privateKey);
  return `${input}.${b64url(signature)}`;
}

/** 502 `github_unavailable`: GitHub could not be reached or answered with a server error. */
export const githubUnavailable = (what: string, cause?: unknown) =>
  new AppError(502, 'github_unavailable', `GitHub did not answer ${what}; try again in a minute`, { expose: true, cause });

/** An answer of GitHub's API: the status and the parsed JSON body (undefined when not JSON). */
export interface GithubAnswer { status: number; body: any }

/** How long one call to GitHub may take. */
const GITHUB_TIMEOUT_MS = 15_000;

/**
 * Calls GitHub (`url` absolute) with `auth` as the Authorization header. A network failure or a
 * 5xx becomes {@link githubUnavailable}; any other status is the caller's to judge.
 */
export async function githubCall(method: string, url: string, opts: { auth?: string; body?: unknown; what: string }): Promise<GithubAnswer> {
  const headers: Record<string, string> = { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'folio-control-plane' };
  if (opts.auth) headers.authorization = opts.auth;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body), signal: AbortSignal.timeout(GITHUB_TIMEOUT_MS), redirect: 'manual' });
    text = await res.text();
  } catch (err) {
    throw githubUnavailable(opts.what, err);
  }
  if (res.status >= 500) throw githubUnavailable(opts.what, new Error(`GitHub answered ${res.status}: ${text.slice(0, 200)}`));
  let body: unknown;
  try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
  return { status: res.status, body };
}
