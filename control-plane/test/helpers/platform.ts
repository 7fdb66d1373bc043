/**
 * Test factory for the whole platform: control plane (in-memory embedded database), site server,
 * local object store in a temp folder, and real builder worker processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createOrganization } from '../../src/admin/organizations.ts';
import { parseEnv } from '../../src/env.ts';
import { startPlatform, type Platform, type PlatformOptions } from '../../src/platform.ts';
import { runGit } from '../../src/git/git-cli.ts';

const WORKER_MAIN = fileURLToPath(new URL('../../../builder/src/worker/main.ts', import.meta.url));

export interface WorkerProcess { child: ChildProcess; lines: string[]; waitFor(re: RegExp, timeoutMs?: number): Promise<string>; kill(signal?: NodeJS.Signals): void }

export interface TestPlatform {
  p: Platform;
  dataDir: string;
  key: string;
  orgId: string;
  /** Calls the API with the test organization's key, or `asKey`. */
  api(method: string, urlPath: string, body?: unknown, asKey?: string): Promise<{ status: number; body: any }>;
  /** Another organization (a second tenant) and a full-access key of it. */
  newOrg(name: string): Promise<{ orgId: string; key: string }>;
  /** Starts a builder worker (`extraEnv` values of '' remove a variable); `asUser` runs it as that user id (as a non-root container does; needs root and setpriv). */
  startWorker(extraEnv?: Record<string, string>, asUser?: number): WorkerProcess;
  /** GET a path of a project's site through the site server, by Host. */
  site(slug: string, urlPath: string, headers?: Record<string, string>, request?: { method?: string; body?: string }): Promise<{ status: number; body: string; headers: Headers }>;
  /** A local working copy holding `files`, committed, with the project's managed repo as `origin`. */
  workingCopy(slug: string, files: Record<string, string>, asKey?: string): Promise<{ dir: string; write(files: Record<string, string>, remove?: string[]): Promise<void>; push(): Promise<string> }>;
  waitForDeployment(projectId: string, predicate: (d: any) => boolean, timeoutMs?: number, asKey?: string): Promise<any>;
  close(): Promise<void>;
}

export async function startTestPlatform(envOverrides: Record<string, string> = {}, extra: Partial<PlatformOptions> = {}): Promise<TestPlatform> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-platform-'));
  // PUSH_WAIT_MS 0: a push returns once its deployment is queued (tests that push before a worker
  // runs would otherwise wait for an outcome that cannot come); push-feedback.test.ts sets its own.
  const env = parseEnv({ API_PORT: '0', SITE_PORT: '0', DATA_DIR: dataDir, WORKER_SECRET: 'test-worker-secret', LOG_LEVEL: 'silent', PUSH_WAIT_MS: '0', ...envOverrides, ...(process.env.MONGODB_URI ? { MONGODB_URI: process.env.MONGODB_URI } : {}) });
  const p = await startPlatform({ env, inMemory: true, port: 0, sitePort: 0, log: (m, e) => { if (process.env.FOLIO_TEST_LOG) console.error(m, e); }, validateResponses: true, ...extra });
  const org = await createOrganization(p.cp.m, `e2e-${process.pid}`, 'enterprise');
  const { key } = await createApiKey(p.cp.m, { orgId: org._id });
  const workers: WorkerProcess[] = [];
  // Workers' folders and working copies, removed with the platform.
  const made: string[] = [];
  const tp: TestPlatform = {
    p, dataDir, key, orgId: org._id,
    async api(method, urlPath, body, asKey = key) {
      const res = await fetch(`${p.cp.apiUrl}${urlPath}`, { method, headers: { authorization: `Bearer ${asKey}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    startWorker(extraEnv = {}, asUser) {
      const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-work-'));
      made.push(workDir);
      if (asUser !== undefined) fs.chownSync(workDir, asUser, asUser);
      const command = [...(asUser !== undefined ? ['setpriv', `--reuid=${asUser}`, `--regid=${asUser}`, '--clear-groups', '--'] : []), process.execPath, '--import=tsx', WORKER_MAIN];
      const child = spawn(command[0], command.slice(1), {
        // An empty value in extraEnv removes the variable (e.g. WORK_DIR: '' lets the worker make its own).
        env: Object.fromEntries(Object.entries({ PATH: process.env.PATH, HOME: asUser !== undefined ? workDir : process.env.HOME, CONTROL_PLANE_URL: p.internalUrl, WORKER_SECRET: 'test-worker-secret', POLL_MS: '200', WORK_DIR: workDir, ...extraEnv }).filter(([, v]) => v !== '')),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const lines: string[] = [];
      const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
      for (const stream of [child.stdout!, child.stderr!]) {
        createInterface({ input: stream }).on('line', (line) => {
          lines.push(line);
          for (const w of [...waiters]) if (w.re.test(line)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(line); }
        });
      }
      const w: WorkerProcess = {
        child, lines,
        waitFor(re, timeoutMs = 120_000) {
          const seen = lines.find((l) => re.test(l));
          if (seen) return Promise.resolve(seen);
          return new Promise((resolve, reject) => {
            const t = setTimeout(() => reject(new Error(`worker never printed ${re}; output:\n${lines.join('\n')}`)), timeoutMs);
            waiters.push({ re, resolve: (l) => { clearTimeout(t); resolve(l); } });
          });
        },
        kill(signal = 'SIGKILL') { child.kill(signal); },
      };
      workers.push(w);
      return w;
    },
    site(slug, urlPath, headers = {}, request = {}) {
      // fetch() may not set Host, so this goes through node:http.
      return new Promise((resolve, reject) => {
        const req = http.request(`${p.site.url}${urlPath}`, { method: request.method ?? 'GET', headers: { host: `${slug}.${env.SITES_DOMAIN}`, ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const h = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: h });
          });
        });
        req.on('error', reject);
        req.end(request.body);
      });
    },
    async newOrg(name) {
      const other = await createOrganization(p.cp.m, name, 'enterprise');
      return { orgId: other._id, key: (await createApiKey(p.cp.m, { orgId: other._id })).key };
    },
    async workingCopy(slug, files, asKey = key) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-wc-'));
      made.push(dir);
      const gitEnv = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };
      await runGit(['init', '-q', '-b', 'main'], { cwd: dir });
      const remote = `${p.internalUrl.replace('http://', `http://git:${asKey}@`)}/git/${slug}.git`;
      await runGit(['remote', 'add', 'origin', remote], { cwd: dir });
      const wc = {
        dir,
        async write(more: Record<string, string>, remove: string[] = []) {
          for (const [f, text] of Object.entries(more)) { fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true }); fs.writeFileSync(path.join(dir, f), text); }
          for (const f of remove) fs.rmSync(path.join(dir, f));
          await runGit(['add', '-A'], { cwd: dir });
          await runGit(['commit', '-q', '-m', 'edit'], { cwd: dir, env: gitEnv });
        },
        async push() {
          await runGit(['push', '-q', 'origin', 'main'], { cwd: dir });
          return (await runGit(['rev-parse', 'HEAD'], { cwd: dir })).stdout.toString().trim();
        },
      };
      await wc.write(files);
      return wc;
    },
    async waitForDeployment(projectId, predicate, timeoutMs = 180_000, asKey = key) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const list = (await tp.api('GET', `/projects/${projectId}/deployments?limit=100`, undefined, asKey)).body.data;
        const hit = list.find(predicate);
        if (hit && hit.finished_at) return hit;
        if (Date.now() > deadline) throw new Error(`no matching finished deployment: ${JSON.stringify(list)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    async close() {
      for (const w of workers) w.kill('SIGKILL');
      await p.close();
      for (const dir of [dataDir, ...made]) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return tp;
}
