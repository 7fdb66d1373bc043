/**
 * Drafts survive a restart: the platform runs in its own process on a data directory with a
 * managed repository that has a page pushed with `git`; a draft is saved, the process is killed
 * (SIGKILL: nothing gets to flush), and a new process on the same data directory serves the
 * draft with its base commit, in the tree and in the list of drafts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { startPlatformProcess } from '../helpers/platform-process.ts';
import { runGit } from '../../src/git/git-cli.ts';

const MAIN = fileURLToPath(new URL('./drafts-platform-process.ts', import.meta.url));
const PASSWORD = 'correct horse battery staple';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-drafts-restart-'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-drafts-wc-'));
t.teardown(() => { for (const d of [dataDir, work]) fs.rmSync(d, { recursive: true, force: true }); });

const start = (setup: boolean) => startPlatformProcess(t, MAIN, { DATA_DIR: dataDir, SETUP: setup ? '1' : '', PASSWORD });

async function session(apiUrl: string, email: string): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${new URL(apiUrl).origin}/dashboard/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  const body = (await res.json()) as { csrf_token: string };
  return { cookie: res.headers.getSetCookie().find((c) => c.startsWith('folio_session='))!.split(';')[0]!, csrf: body.csrf_token };
}

async function call(apiUrl: string, auth: { cookie: string; csrf: string }, method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${new URL(apiUrl).origin}/dashboard/api${urlPath}`, { method, headers: { cookie: auth.cookie, 'x-csrf-token': auth.csrf, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() };
}

t.test('drafts survive a SIGKILL of the platform', async (t) => {
  const first = await start(true);
  const { projectId, slug, key, email, apiUrl, internalUrl } = first.info as Record<string, string>;
  const env = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };
  await runGit(['init', '-q', '-b', 'main'], { cwd: work });
  fs.writeFileSync(path.join(work, 'index.mdx'), '# Home\n');
  await runGit(['add', '-A'], { cwd: work });
  await runGit(['commit', '-q', '-m', 'first'], { cwd: work, env });
  await runGit(['push', '-q', `${internalUrl!.replace('http://', `http://git:${key}@`)}/git/${slug}.git`, 'main'], { cwd: work });
  const head = (await runGit(['rev-parse', 'HEAD'], { cwd: work })).stdout.toString().trim();

  const auth = await session(apiUrl!, email!);
  const base = `/projects/${projectId}/editor`;
  const saved = await call(apiUrl!, auth, 'PUT', `${base}/file`, { path: 'index.mdx', content: '# Home\n\nTyped before the crash.\n', revision: 0 });
  t.same([saved.status, saved.body.revision], [200, 1]);
  t.equal((await call(apiUrl!, auth, 'PUT', `${base}/file`, { path: 'guides/new.mdx', content: '# New\n' })).status, 200);
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));

  const second = await start(false);
  const apiUrl2 = second.info.apiUrl!;
  // The session is in the database as well: the same cookie works on the new process.
  const file = await call(apiUrl2, auth, 'GET', `${base}/file?path=index.mdx`);
  t.equal(file.status, 200);
  t.same([file.body.content, file.body.base_commit, file.body.base_content, file.body.draft.revision], ['# Home\n\nTyped before the crash.\n', head, '# Home\n', 1]);
  const tree = await call(apiUrl2, auth, 'GET', `${base}/tree`);
  t.same(tree.body.files.map((f: any) => [f.path, f.status]), [['guides/new.mdx', 'added'], ['index.mdx', 'modified']]);
  const drafts = await call(apiUrl2, auth, 'GET', `${base}/drafts`);
  t.same(drafts.body.data.map((d: any) => [d.path, d.status, d.updated_by.email]), [['guides/new.mdx', 'added', email], ['index.mdx', 'modified', email]]);
  const next = await call(apiUrl2, auth, 'PUT', `${base}/file`, { path: 'index.mdx', content: '# Home\n\nAnd after.\n', revision: 1 });
  t.same([next.status, next.body.revision], [200, 2], 'the revision count carries on');
  second.child.kill('SIGTERM');
  await new Promise((r) => second.child.once('exit', r));
});
