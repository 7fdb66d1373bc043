/**
 * A stand-in GitHub for tests: one node:http server on 127.0.0.1 serving the REST API calls the
 * control plane makes (under `/api`, as GitHub Enterprise Server does under `/api/v3`), the
 * OAuth code exchange, and Git smart HTTP (`git http-backend`) for its repositories: fetches
 * with any token that reads the repository, pushes only with one minted with `contents: write`.
 *
 * It checks what GitHub checks: the App JWT's RS256 signature (against the public half of a key
 * pair made here), its issuer and lifetime; installation tokens expire and read only the
 * repositories they were minted for, which the installation must cover (`all` of its account's
 * repositories, or the `selected` ones); a user token lists only the installations its user can
 * see; repository names match in any letter case; a deleted or suspended installation mints
 * nothing and its tokens stop working.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from '../../src/env.ts';
import { runGit } from '../../src/git/git-cli.ts';
import type { Models } from '../../src/db/models/index.ts';

export interface StandInAccount { id: number; login: string }
export interface StandInRepo { id: number; fullName: string; owner: StandInAccount; private: boolean; dir: string }
export interface StandInInstallation { id: number; account: StandInAccount; selection: 'all' | 'selected'; repoIds: Set<number>; suspended: boolean; deleted: boolean }
export interface StandInUser { id: number; login: string; installations: Set<number>; /** Repositories the user reads; null: all of its installations' accounts. */ reads: Set<number> | null }

/** `write`: minted with `contents: write` (pushes allowed); every other token only reads. */
interface TokenRecord { installationId: number; repoIds: Set<number> | null; expiresAt: number; write: boolean }

export interface GithubStandIn {
  /** Origin without a trailing slash: clones and OAuth at `<url>/…`, the API at `<url>/api`. */
  url: string;
  /** Environment variables configuring the control plane's GitHub App against this stand-in. */
  env: Record<string, string>;
  appId: string;
  /** Every request, as `METHOD /path` (query left out). */
  requests: string[];
  /** Every token minted: for which installation and which repository ids (null: every repository it covers). */
  mints: { installationId: number; repoIds: number[] | null; token: string; write: boolean }[];
  /** A repository `owner/name` (its account made on first use), with `files` committed on `main` when given. */
  repo(fullName: string, opts?: { files?: Record<string, string>; private?: boolean }): Promise<StandInRepo>;
  /** Commits `files` on `branch` of a repository; resolves to the new commit's sha. */
  commit(repo: StandInRepo, files: Record<string, string>, branch?: string): Promise<string>;
  /** Installs the App on `login`'s account: on all its repositories, or on the `selected` ones. */
  install(login: string, selected?: StandInRepo[]): StandInInstallation;
  /** A GitHub user who can see `installations`, reading all their repositories or only `reads`. */
  user(login: string, installations: StandInInstallation[], reads?: StandInRepo[]): StandInUser;
  /** A one-time OAuth code for `user`, as GitHub puts on the setup redirect. */
  code(user: StandInUser): string;
  /**
   * What the App's install page (`/apps/<slug>/installations/new`) does for the next browser:
   * as `user`, install (or update) `installation`, then redirect to `setupUrl` with
   * `installation_id`, `setup_action`, a fresh `code` and the link's `state`, as GitHub does.
   */
  browserInstall?: { installation: StandInInstallation; user: StandInUser; setupUrl: string };
  /** Links `installation` to `orgId` straight in the database (for tests not about linking). */
  link(m: Models, orgId: string, installation: StandInInstallation): Promise<void>;
  /**
   * Shortcut for tests about something else: makes each repository (when new), installs the App
   * on its account (once) and links that installation to `orgId` (once). Resolves to the repositories.
   */
  connect(m: Models, orgId: string, ...fullNames: string[]): Promise<StandInRepo[]>;
  /** Mints a token as the App would (scoped to `repoIds`), for tests that fetch with it themselves. */
  mintFor(installation: StandInInstallation, repoIds: number[]): string;
  close(): Promise<void>;
}

let nextId = 1000;
const GIT_ENV = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };

/** Starts the stand-in on a free port of 127.0.0.1. */
export async function startGithubStandIn(): Promise<GithubStandIn> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-github-'));
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const appId = String(++nextId);
  const clientId = `Iv1.${randomBytes(8).toString('hex')}`;
  const clientSecret = randomBytes(20).toString('hex');
  const accounts = new Map<string, StandInAccount>();
  const repos = new Map<string, StandInRepo>();
  const installations = new Map<number, StandInInstallation>();
  const tokens = new Map<string, TokenRecord>();
  const userTokens = new Map<string, StandInUser>();
  const codes = new Map<string, StandInUser>();
  const requests: string[] = [];
  const mints: GithubStandIn['mints'] = [];

  const accountOf = (login: string) => {
    let a = accounts.get(login.toLowerCase());
    if (!a) accounts.set(login.toLowerCase(), a = { id: ++nextId, login });
    return a;
  };
  const repoNamed = (owner: string, name: string) => repos.get(`${owner}/${name}`.toLowerCase());
  const covers = (i: StandInInstallation, r: StandInRepo) => !i.deleted && i.account === r.owner && (i.selection === 'all' || i.repoIds.has(r.id));
  const installationOn = (r: StandInRepo) => [...installations.values()].find((i) => !i.deleted && i.account === r.owner);
  const liveToken = (header: string | undefined): TokenRecord | undefined => {
    const m = /^(?:token|Bearer)\s+(\S+)$/i.exec(header ?? '');
    const rec = m ? tokens.get(m[1]) : undefined;
    if (!rec || rec.expiresAt <= Date.now()) return undefined;
    const inst = installations.get(rec.installationId);
    return inst && !inst.deleted && !inst.suspended ? rec : undefined;
  };
  const tokenReads = (rec: TokenRecord, r: StandInRepo) => {
    const inst = installations.get(rec.installationId)!;
    return covers(inst, r) && (rec.repoIds === null || rec.repoIds.has(r.id));
  };
  const mint = (inst: StandInInstallation, repoIds: Set<number> | null, write = false) => {
    const token = `ghs_${randomBytes(18).toString('hex')}`;
    const expiresAt = Date.now() + 60 * 60_000;
    tokens.set(token, { installationId: inst.id, repoIds, expiresAt, write });
    mints.push({ installationId: inst.id, repoIds: repoIds ? [...repoIds] : null, token, write });
    return { token, expiresAt };
  };
  /** Whether `header` carries a valid App JWT (RS256, this App, not expired, at most 10 minutes long). */
  const appAuthorized = (header: string | undefined) => {
    const m = /^Bearer\s+([\w-]+)\.([\w-]+)\.([\w-]+)$/.exec(header ?? '');
    if (!m) return false;
    const ok = verify('RSA-SHA256', Buffer.from(`${m[1]}.${m[2]}`), publicKey, Buffer.from(m[3], 'base64url'));
    if (!ok) return false;
    const head = JSON.parse(Buffer.from(m[1], 'base64url').toString());
    const claims = JSON.parse(Buffer.from(m[2], 'base64url').toString());
    const now = Math.floor(Date.now() / 1000);
    return head.alg === 'RS256' && String(claims.iss) === appId && claims.iat <= now + 60 && claims.exp > now && claims.exp - claims.iat <= 600;
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${req.method} ${url.pathname}`);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const json = (status: number, value: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(value)); };
      const notFound = () => json(404, { message: 'Not Found' });
      const p = url.pathname;
      let m: RegExpExecArray | null;
      if (req.method === 'POST' && (m = /^\/api\/app\/installations\/(\d+)\/access_tokens$/.exec(p))) {
        if (!appAuthorized(req.headers.authorization)) return json(401, { message: 'A JSON web token could not be decoded' });
        const inst = installations.get(Number(m[1]));
        if (!inst || inst.deleted) return notFound();
        if (inst.suspended) return json(403, { message: 'This installation has been suspended' });
        const ask = body.length ? JSON.parse(body.toString()) : {};
        let wanted: StandInRepo[] | null = null;
        if (Array.isArray(ask.repository_ids)) wanted = ask.repository_ids.map((id: number) => [...repos.values()].find((r) => r.id === id));
        else if (Array.isArray(ask.repositories)) wanted = ask.repositories.map((n: string) => repoNamed(inst.account.login, n));
        if (wanted && wanted.some((r) => !r || !covers(inst, r))) {
          return json(422, { message: 'There is at least one repository that does not exist or is not accessible to the parent installation.' });
        }
        const { token, expiresAt } = mint(inst, wanted ? new Set(wanted.map((r) => r.id)) : null, ask.permissions?.contents === 'write');
        return json(201, { token, expires_at: new Date(expiresAt).toISOString(), permissions: ask.permissions ?? {} });
      }
      if (req.method === 'GET' && (m = /^\/api\/repos\/([^/]+)\/([^/]+)\/installation$/.exec(p))) {
        if (!appAuthorized(req.headers.authorization)) return json(401, { message: 'A JSON web token could not be decoded' });
        const r = repoNamed(decodeURIComponent(m[1]), decodeURIComponent(m[2]));
        const inst = r ? installationOn(r) : undefined;
        if (!r || !inst || !covers(inst, r)) return notFound();
        return json(200, { id: inst.id, account: { login: inst.account.login, id: inst.account.id }, repository_selection: inst.selection });
      }
      if (req.method === 'GET' && (m = /^\/api\/repos\/([^/]+)\/([^/]+)$/.exec(p))) {
        const rec = liveToken(req.headers.authorization);
        if (!rec) return json(401, { message: 'Bad credentials' });
        const r = repoNamed(decodeURIComponent(m[1]), decodeURIComponent(m[2]));
        if (!r || !tokenReads(rec, r)) return notFound();
        return json(200, { id: r.id, full_name: r.fullName, private: r.private, owner: { login: r.owner.login, id: r.owner.id } });
      }
      if (req.method === 'GET' && p === '/api/user/installations') {
        const t = /^(?:token|Bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? '');
        const user = t ? userTokens.get(t[1]) : undefined;
        if (!user) return json(401, { message: 'Bad credentials' });
        const list = [...user.installations].map((id) => installations.get(id)!).filter((i) => !i.deleted);
        return json(200, { total_count: list.length, installations: list.map((i) => ({ id: i.id, account: { login: i.account.login, id: i.account.id }, repository_selection: i.selection })) });
      }
      if (req.method === 'GET' && p === '/api/installation/repositories') {
        const rec = liveToken(req.headers.authorization);
        if (!rec) return json(401, { message: 'Bad credentials' });
        const list = [...repos.values()].filter((r) => tokenReads(rec, r));
        return json(200, { total_count: list.length, repositories: list.slice(0, Number(url.searchParams.get('per_page') ?? 30)).map((r) => ({ id: r.id, full_name: r.fullName })) });
      }
      if (req.method === 'GET' && (m = /^\/api\/user\/installations\/(\d+)\/repositories$/.exec(p))) {
        const t = /^(?:token|Bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? '');
        const user = t ? userTokens.get(t[1]) : undefined;
        if (!user) return json(401, { message: 'Bad credentials' });
        const inst = installations.get(Number(m[1]));
        if (!inst || inst.deleted || !user.installations.has(inst.id)) return notFound();
        const list = [...repos.values()].filter((r) => covers(inst, r) && (user.reads === null || user.reads.has(r.id)));
        return json(200, { total_count: list.length, repositories: list.slice(0, Number(url.searchParams.get('per_page') ?? 30)).map((r) => ({ id: r.id, full_name: r.fullName })) });
      }
      if (req.method === 'POST' && p === '/login/oauth/access_token') {
        const text = body.toString();
        const form = (req.headers['content-type'] ?? '').includes('json') ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
        const user = codes.get(form.code);
        if (form.client_id !== clientId || form.client_secret !== clientSecret) return json(200, { error: 'incorrect_client_credentials' });
        if (!user) return json(200, { error: 'bad_verification_code' });
        codes.delete(form.code);
        const token = `ghu_${randomBytes(18).toString('hex')}`;
        userTokens.set(token, user);
        return json(200, { access_token: token, token_type: 'bearer', scope: '' });
      }
      if (req.method === 'GET' && /^\/apps\/[^/]+\/installations\/new$/.test(p) && standIn.browserInstall) {
        const { installation, user, setupUrl } = standIn.browserInstall;
        const to = new URL(setupUrl);
        to.search = new URLSearchParams({ installation_id: String(installation.id), setup_action: 'install', code: standIn.code(user), state: url.searchParams.get('state') ?? '' }).toString();
        res.writeHead(302, { location: to.toString() });
        return res.end();
      }
      if ((m = /^\/([^/]+)\/([^/]+?)\.git(\/.*)$/.exec(p))) return serveGit(req, res, url, body, decodeURIComponent(m[1]), decodeURIComponent(m[2]), m[3]);
      notFound();
    });
  });

  function serveGit(req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: Buffer, owner: string, name: string, rest: string) {
    const auth = req.headers.authorization ?? '';
    const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
    const rec = decoded.startsWith('x-access-token:') ? liveToken(`token ${decoded.slice('x-access-token:'.length)}`) : undefined;
    if (!rec) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="GitHub"', 'Content-Type': 'text/plain' });
      res.end('Invalid username or token.\n');
      return;
    }
    const r = repoNamed(owner, name);
    if (!r || !tokenReads(rec, r)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('Repository not found.\n');
      return;
    }
    // Only a token minted with `contents: write` pushes.
    if ((rest.includes('git-receive-pack') || url.search.includes('git-receive-pack')) && !rec.write) {
      res.writeHead(403, { 'Content-Type': 'text/plain' });
      res.end('Write access not granted.\n');
      return;
    }
    runBackend(root, req, `/${path.relative(root, r.dir)}${rest}`, url.search.slice(1), body, res);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const standIn: GithubStandIn = {
    url: origin, appId, requests, mints,
    env: {
      GITHUB_APP_ID: appId, GITHUB_APP_PRIVATE_KEY: pem, GITHUB_APP_SLUG: 'folio-test', GITHUB_APP_CLIENT_ID: clientId, GITHUB_APP_CLIENT_SECRET: clientSecret,
      GITHUB_API_URL: `${origin}/api`, GITHUB_BASE_URL: origin,
    },
    async repo(fullName, opts = {}) {
      const [owner, name] = fullName.split('/');
      const dir = path.join(root, owner.toLowerCase(), `${name.toLowerCase()}.git`);
      fs.mkdirSync(dir, { recursive: true });
      await runGit(['init', '-q', '--bare', '-b', 'main', dir]);
      const r: StandInRepo = { id: ++nextId, fullName, owner: accountOf(owner), private: opts.private ?? true, dir };
      repos.set(fullName.toLowerCase(), r);
      if (opts.files) await standIn.commit(r, opts.files);
      return r;
    },
    async commit(r, files, branch = 'main') {
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-github-wc-'));
      try {
        await runGit(['init', '-q', '-b', branch], { cwd: work });
        await runGit(['fetch', '-q', r.dir, `+refs/heads/${branch}:refs/remotes/origin/${branch}`], { cwd: work, allowFail: true });
        // Mixed: the index gets the branch's files too, so files not named in `files` are kept.
        await runGit(['reset', '-q', `origin/${branch}`], { cwd: work, allowFail: true });
        await runGit(['checkout', '-q', '--', '.'], { cwd: work, allowFail: true });
        for (const [f, text] of Object.entries(files)) {
          fs.mkdirSync(path.dirname(path.join(work, f)), { recursive: true });
          fs.writeFileSync(path.join(work, f), text);
        }
        await runGit(['add', '-A'], { cwd: work });
        await runGit(['commit', '-q', '-m', 'edit'], { cwd: work, env: GIT_ENV });
        await runGit(['push', '-q', r.dir, `HEAD:refs/heads/${branch}`], { cwd: work });
        return (await runGit(['rev-parse', 'HEAD'], { cwd: work })).stdout.toString().trim();
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
    },
    install(login, selected) {
      const inst: StandInInstallation = { id: ++nextId, account: accountOf(login), selection: selected ? 'selected' : 'all', repoIds: new Set(selected?.map((r) => r.id)), suspended: false, deleted: false };
      installations.set(inst.id, inst);
      return inst;
    },
    user(login, list, reads) {
      return { id: ++nextId, login, installations: new Set(list.map((i) => i.id)), reads: reads ? new Set(reads.map((r) => r.id)) : null };
    },
    code(user) {
      const code = randomBytes(10).toString('hex');
      codes.set(code, user);
      return code;
    },
    async link(m, orgId, inst) {
      await m.GithubInstallation.create({ _id: inst.id, org_id: orgId, account_login: inst.account.login, account_id: inst.account.id, created_at: new Date() });
    },
    async connect(m, orgId, ...fullNames) {
      const made: StandInRepo[] = [];
      for (const fullName of fullNames) {
        const r = repoNamed(...(fullName.split('/') as [string, string])) ?? await standIn.repo(fullName);
        const inst = installationOn(r) ?? standIn.install(r.owner.login);
        if (!(await m.GithubInstallation.exists({ _id: inst.id }))) await standIn.link(m, orgId, inst);
        made.push(r);
      }
      return made;
    },
    mintFor(inst, repoIds) {
      return mint(inst, new Set(repoIds)).token;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => { fs.rmSync(root, { recursive: true, force: true }); resolve(); });
    }),
  };
  return standIn;
}

/** Runs `git http-backend` for one request (as builder/test/helpers/git-http-server.ts does). */
function runBackend(root: string, req: http.IncomingMessage, pathInfo: string, query: string, body: Buffer, res: http.ServerResponse): void {
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH, GIT_PROJECT_ROOT: root, GIT_HTTP_EXPORT_ALL: '1', REQUEST_METHOD: req.method ?? 'GET', PATH_INFO: pathInfo, QUERY_STRING: query,
      CONTENT_TYPE: req.headers['content-type'] ?? '', CONTENT_LENGTH: String(body.length), REMOTE_ADDR: '127.0.0.1', REMOTE_USER: 'x-access-token',
      GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''), HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
    },
  });
  const out: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.resume();
  child.on('close', () => {
    const all = Buffer.concat(out);
    const crlf = all.indexOf('\r\n\r\n');
    const split = crlf >= 0 ? crlf : all.indexOf('\n\n');
    const headers: Record<string, string> = {};
    let status = 200;
    for (const line of all.subarray(0, split).toString('latin1').split(/\r?\n/)) {
      const i = line.indexOf(':');
      if (i < 0) continue;
      const name = line.slice(0, i).trim();
      const value = line.slice(i + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    res.writeHead(status, headers);
    res.end(all.subarray(split + (crlf >= 0 ? 4 : 2)));
  });
  child.stdin.on('error', () => {});
  child.stdin.end(body);
}

/** The control plane's environment for tests: ephemeral port, silent, `gh`'s GitHub App, and `more`. */
export function envWithGithub(gh: GithubStandIn | null, more: Record<string, string> = {}) {
  return parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', ...(gh?.env ?? {}), ...more, ...(process.env.MONGODB_URI ? { MONGODB_URI: process.env.MONGODB_URI } : {}) });
}
