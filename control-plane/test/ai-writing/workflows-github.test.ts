/**
 * A workflow whose code is on the customer's GitHub: the code project is connected to a
 * repository of the GitHub stand-in, and a signed push webhook for it starts the workflow's run
 * with the pushed diff (read from the project's mirror, fetched for it) as the change; the run
 * ends as a review branch of the docs project.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { saveSettings } from '../../src/ai-settings/model-settings.ts';
import { agentRunModel, type AgentRun } from '../../src/ai-writing/agent-run-store.ts';
import { localRepoDir } from '../../src/editor/repo-access.ts';
import { headCommit, readRepoFile } from '../../src/editor/repo-files.ts';
import { runGit } from '../../src/git/git-cli.ts';
import { signBody } from '../../src/webhooks/verify-signature.ts';
import { startTestApi } from '../helpers/api.ts';
import { dash, dashTenant } from '../helpers/dashboard.ts';
import { envWithGithub, startGithubStandIn } from '../helpers/github-stand-in.ts';
import { startModelStandIn } from './model-stand-in.ts';

const SECRET = 'workflow-webhook-secret';
const GIT_ENV = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };

t.test('a workflow started by a GitHub push webhook', async (t) => {
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const model = await startModelStandIn();
  t.teardown(() => model.close());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-wf-gh-'));
  const env = envWithGithub(gh, { GITHUB_WEBHOOK_SECRET: SECRET, DATA_DIR: dataDir, AI_MODEL_PRIVATE_HOSTS: [gh.env.AI_MODEL_PRIVATE_HOSTS, new URL(model.url).host].filter(Boolean).join(',') });
  const api = await startTestApi({ env });
  t.teardown(async () => { await api.close(); fs.rmSync(dataDir, { recursive: true, force: true }); });
  const m = api.cp.m;
  const deps = api.cp.deps;
  const ent = await dashTenant(api, 'enterprise');
  const key = await api.key(ent.orgId);
  const repo = await gh.repo('Acme/Service', { files: { 'src/widgets.ts': 'export function listWidgets() {}\n' } });
  await gh.connect(m, ent.orgId, 'Acme/Service');
  const installationId = (await m.GithubInstallation.findOne({ org_id: ent.orgId }).lean())!._id;
  const code = await api.project(key, { name: 'Service', slug: 'wf-gh-code', github_repo: 'Acme/Service' });
  const docs = await api.project(key, { name: 'Docs', slug: 'wf-gh-docs' });
  await saveSettings(m, env, ent.orgId, { base_url: model.url, model: 'agent-1' }, api.clock.now);
  // The docs project's pages.
  const gitdir = await localRepoDir(deps, (await m.Project.findById(docs.id).lean())!);
  const wc = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-wf-gh-wc-'));
  t.teardown(() => fs.rmSync(wc, { recursive: true, force: true }));
  await runGit(['init', '-q', '-b', 'main'], { cwd: wc });
  fs.writeFileSync(path.join(wc, 'docs.json'), '{"name":"Docs","navigation":[{"group":"API","pages":["index"]}]}\n');
  fs.writeFileSync(path.join(wc, 'index.mdx'), '# Home\n');
  await runGit(['add', '-A'], { cwd: wc });
  await runGit(['commit', '-q', '-m', 'docs'], { cwd: wc, env: GIT_ENV });
  await runGit(['push', '-q', gitdir, 'HEAD:refs/heads/main'], { cwd: wc });
  const productionHead = await headCommit(deps, docs.id);
  // The code project's mirror holds the first commit before the push.
  await localRepoDir(deps, (await m.Project.findById(code.id).lean())!);

  const created = await dash(api, 'POST', `/projects/${docs.id}/workflows`, { auth: ent.auth, body: { name: 'Service API', instructions: 'Document the change.', trigger: 'push', source_project_id: code.id } });
  t.equal(created.status, 201, created.text);
  const before = (await runGit(['rev-parse', 'refs/heads/main'], { cwd: repo.dir })).stdout.toString().trim();
  const after = await gh.commit(repo, { 'src/widgets.ts': 'export function listWidgets(color?: string) {}\n' });
  model.script.push(
    { toolCalls: [{ name: 'write_page', arguments: { path: 'widgets.mdx', content: '# Widgets\n\nFilter by `color`.\n' } }] },
    { toolCalls: [{ name: 'finish', arguments: { summary: 'Documented the color filter.' } }] },
  );
  const body = JSON.stringify({ ref: 'refs/heads/main', before, after, deleted: false, installation: { id: installationId }, repository: { id: repo.id, full_name: 'Acme/Service' } });
  const res = await api.request('POST', '/webhooks/github', {
    raw: body,
    headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': 'wf-1', 'x-hub-signature-256': signBody(SECRET, Buffer.from(body)) },
  });
  t.equal(res.status, 202, JSON.stringify(res.body));

  let run: AgentRun | null = null;
  for (let i = 0; i < 150 && !(run && run.status !== 'running'); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    run = await agentRunModel(m).findOne({ workflow_id: created.body.id }).lean<AgentRun>();
  }
  t.ok(run, 'the webhook started a run');
  t.same([run!.status, run!.outcome], ['finished', 'Documented the color filter.']);
  t.match(run!.trigger, { kind: 'push', source_project_id: code.id, branch: 'main', before, after });
  const task = model.requests.find((r) => r.body.messages?.[1]?.content?.includes('A push to the code repository'))!.body.messages[1].content as string;
  t.match(task, '-export function listWidgets() {}\n+export function listWidgets(color?: string) {}', 'the pushed diff, read from the mirror');
  t.equal((await readRepoFile(deps, docs.id, run!.commit!, 'widgets.mdx'))!.toString(), '# Widgets\n\nFilter by `color`.\n', 'the review branch has the change');
  t.equal(await headCommit(deps, docs.id), productionHead, 'production did not move');
});
