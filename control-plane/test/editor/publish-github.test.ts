/**
 * Publishing to a customer's own GitHub repository, through the GitHub stand-in's Git smart HTTP
 * (`git http-backend`) on 127.0.0.1: the editor's mirror is fetched and pushed with a token of
 * the project's installation restricted to that repository, the commit lands on GitHub, the
 * deployment built from GitHub serves it, and the token is written nowhere on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { runGit } from '../../src/git/git-cli.ts';
import { localRepoDir, mirrorPath, pushBranch } from '../../src/editor/repo-access.ts';
import { publishDrafts } from '../../src/editor/publish/publish.ts';
import { startGithubStandIn } from '../helpers/github-stand-in.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { addUser, dash, signIn } from '../helpers/dashboard.ts';
import type { TestApi } from '../helpers/api.ts';

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

/** Every file below `dir` whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && fs.readFileSync(p).includes(needle)) found.push(p);
    }
  };
  walk(dir);
  return found;
}

t.test('publishing to a customer\'s GitHub repository', async (t) => {
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const tp = await startTestPlatform(gh.env);
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const deps = tp.p.cp.deps;
  const repo = await gh.repo('AcmeCorp/Docs', { files: { 'docs.json': JSON.stringify({ name: 'Acme' }), 'index.mdx': page('Welcome', 'From GitHub.\n\nSecond paragraph.') } });
  await gh.link(m, tp.orgId, gh.install('AcmeCorp'));
  const created = await tp.api('POST', '/projects', { name: 'Acme', slug: `gh-publish-${process.pid}`, github_repo: 'acmecorp/docs' });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const project = (await m.Project.findById(created.body.id).lean())!;
  const by = { userId: 'u-1', author: { name: 'Grace Hopper', email: 'grace@example.com' } };
  const githubHead = async () => (await runGit(['rev-parse', 'refs/heads/main'], { cwd: repo.dir })).stdout.toString().trim();
  tp.startWorker();

  await t.test('should mirror the repository with a token for it alone, publish a commit there and deploy it', async (t) => {
    const mintsBefore = gh.mints.length;
    const dir = await localRepoDir(deps, project, { fresh: true });
    t.equal(dir, mirrorPath(deps, project._id));
    const start = await githubHead();
    t.equal((await runGit(['rev-parse', 'refs/heads/main'], { cwd: dir })).stdout.toString().trim(), start, 'the mirror has GitHub\'s branch');
    const blob = (await runGit(['rev-parse', `${start}:index.mdx`], { cwd: dir })).stdout.toString().trim();
    // A push on GitHub while the draft is open: publishing merges it.
    const pushed = await gh.commit(repo, { 'index.mdx': page('Welcome', 'From GitHub, pushed meanwhile.\n\nSecond paragraph.') });
    const out = await publishDrafts(deps, project, {
      drafts: [{ path: 'index.mdx', kind: 'text', content: page('Welcome', 'From GitHub.\n\nSecond paragraph, edited in the browser.'), base_commit: start, base_blob: blob, renamed_from: null }],
      message: 'Edit from the web editor', by,
    });
    t.same(out.merged, ['index.mdx']);
    t.equal(await githubHead(), out.commit, 'the commit is on GitHub');
    const meta = (await runGit(['log', '-1', '--format=%P|%an <%ae>|%cn <%ce>|%s', out.commit], { cwd: repo.dir })).stdout.toString().trim();
    t.equal(meta, `${pushed}|Grace Hopper <grace@example.com>|Folio <noreply@folio.dev>|Edit from the web editor`);
    const minted = gh.mints.slice(mintsBefore);
    t.ok(minted.length >= 1);
    t.same(minted.map((x) => [x.repoIds, x.write]), minted.map(() => [[repo.id], true]), 'tokens for this repository alone, with contents: write');
    t.ok(gh.requests.includes('POST /AcmeCorp/Docs.git/git-receive-pack'), 'pushed over smart HTTP');

    const d = await tp.waitForDeployment(project._id, (x) => x.id === out.deployment_id);
    t.equal(d.status, 'deployed', JSON.stringify(d));
    const home = (await tp.site(project.slug, '/')).body;
    t.match(home, 'From GitHub, pushed meanwhile.');
    t.match(home, 'Second paragraph, edited in the browser.');

    for (const { token } of minted) {
      t.same(filesContaining(tp.dataDir, token), [], 'no token in any file of the data directory');
    }
    const config = fs.readFileSync(path.join(dir, 'config'), 'utf8');
    t.notMatch(config, /remote|extraheader|x-access-token/i, 'the mirror keeps no remote and no credentials');
  });

  await t.test('should save a draft and publish it through the dashboard routes', async (t) => {
    const api = { cp: tp.p.cp, url: tp.p.cp.apiUrl, clock: { now: new Date() } } as unknown as TestApi;
    const owner = await addUser(api, tp.orgId, 'owner');
    const auth = await signIn(api, owner.email);
    const base = `/projects/${project._id}/editor`;
    const saved = await dash(api, 'PUT', `${base}/file`, { auth, body: { path: 'from-dashboard.mdx', content: page('From the dashboard', 'Saved and published in the browser.') } });
    t.equal(saved.status, 200, saved.text);
    const res = await dash(api, 'POST', `${base}/publish`, { auth, body: { message: 'Published from the dashboard' } });
    t.equal(res.status, 200, res.text);
    t.equal(await githubHead(), res.body.commit, 'the commit is on GitHub');
    t.equal((await runGit(['log', '-1', '--format=%ae|%s', res.body.commit], { cwd: repo.dir })).stdout.toString().trim(), `${owner.email}|Published from the dashboard`);
    const d = await tp.waitForDeployment(project._id, (x) => x.id === res.body.deployment_id);
    t.equal(d.status, 'deployed', JSON.stringify(d));
    t.match((await tp.site(project.slug, '/from-dashboard')).body, 'Saved and published in the browser.');
    t.same((await dash(api, 'GET', `${base}/branches`, { auth })).body, { production: 'main', data: [{ name: 'main', head: res.body.commit }] });
    for (const { token } of gh.mints) t.same(filesContaining(tp.dataDir, token), [], 'no token on disk');
  });

  await t.test('should refuse to move a GitHub branch someone pushed to first', async (t) => {
    const dir = await localRepoDir(deps, project, { fresh: true });
    const stale = (await runGit(['rev-parse', 'refs/heads/main'], { cwd: dir })).stdout.toString().trim();
    const theirs = await gh.commit(repo, { 'other.mdx': page('Other', 'Pushed first.') });
    const tree = (await runGit(['rev-parse', `${stale}^{tree}`], { cwd: dir })).stdout.toString().trim();
    const mine = (await runGit(['commit-tree', tree, '-p', stale, '-m', 'mine'], { cwd: dir, env: { GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com' } })).stdout.toString().trim();
    t.equal(await pushBranch(deps, project, 'main', mine, stale), false, 'refused: the branch moved');
    t.equal(await githubHead(), theirs, 'their commit is kept');
  });
});
