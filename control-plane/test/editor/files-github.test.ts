/**
 * The editor's tree and files for a project whose repository is on the customer's GitHub (the
 * GitHub stand-in's Git smart HTTP on 127.0.0.1): read through the local mirror, a push on
 * GitHub showing up in the tree, drafts with the GitHub head as their base.
 */
import t from 'tap';
import { startGithubStandIn } from '../helpers/github-stand-in.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { addUser, dash, signIn } from '../helpers/dashboard.ts';
import type { TestApi } from '../helpers/api.ts';
import { runGit } from '../../src/git/git-cli.ts';

t.test('editor files of a GitHub project', async (t) => {
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const tp = await startTestPlatform(gh.env);
  t.teardown(() => tp.close());
  const api = { cp: tp.p.cp, url: tp.p.cp.apiUrl, clock: { now: new Date() } } as unknown as TestApi;
  const auth = await signIn(api, (await addUser(api, tp.orgId, 'editor')).email);
  const repo = await gh.repo('AcmeCorp/Docs', { files: { 'docs.json': '{"name":"Acme"}', 'index.mdx': '# From GitHub\n' } });
  await gh.link(tp.p.cp.m, tp.orgId, gh.install('AcmeCorp'));
  const created = await tp.api('POST', '/projects', { name: 'Acme', slug: `gh-files-${process.pid}`, github_repo: 'acmecorp/docs' });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const base = `/projects/${created.body.id}/editor`;
  const githubHead = async () => (await runGit(['rev-parse', 'refs/heads/main'], { cwd: repo.dir })).stdout.toString().trim();

  const tree = await dash(api, 'GET', `${base}/tree`, { auth });
  t.equal(tree.status, 200, tree.text);
  t.same([tree.body.head, tree.body.files.map((f: any) => [f.path, f.kind, f.status])], [await githubHead(), [['docs.json', 'config', 'unchanged'], ['index.mdx', 'page', 'unchanged']]]);
  const file = await dash(api, 'GET', `${base}/file?path=index.mdx`, { auth });
  t.same([file.body.content, file.body.base_commit], ['# From GitHub\n', await githubHead()]);
  const saved = await dash(api, 'PUT', `${base}/file`, { auth, body: { path: 'index.mdx', content: '# Edited\n', revision: 0 } });
  t.equal(saved.status, 200, saved.text);
  const start = await githubHead();
  await gh.commit(repo, { 'guide.mdx': '# Pushed on GitHub\n' });
  // The mirror is fetched again once it is ten seconds old.
  await new Promise((r) => setTimeout(r, 10_500));
  const after = await dash(api, 'GET', `${base}/tree`, { auth });
  t.same([after.body.head, after.body.files.map((f: any) => [f.path, f.status])], [await githubHead(), [['docs.json', 'unchanged'], ['guide.mdx', 'unchanged'], ['index.mdx', 'modified']]]);
  t.equal((await dash(api, 'GET', `${base}/file?path=index.mdx`, { auth })).body.base_commit, start, 'the draft keeps the commit it started from');
});
