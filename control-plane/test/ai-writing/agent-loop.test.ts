/**
 * The writing agent's loop against a scripted stand-in model and a real managed repository:
 * search → read → write → build → finish makes the branch `agent/<run id>` with the change and a
 * preview deployment (its build finished here by a stand-in builder that records a warning); the
 * run's events show each step; calls outside the project are refused and the run goes on; the
 * step and credit bounds stop a run cleanly; cancel; merging the branch. Access: free 402, no
 * model 409, viewer 403, another organization 404, API key 401.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { saveSettings } from '../../src/ai-settings/model-settings.ts';
import { agentRunModel } from '../../src/ai-writing/agent-run-store.ts';
import { parseEnv } from '../../src/env.ts';
import { runGit } from '../../src/git/git-cli.ts';
import { localRepoDir } from '../../src/editor/repo-access.ts';
import { headCommit, readRepoFile } from '../../src/editor/repo-files.ts';
import { mergeBranch } from '../../src/editor/publish/publish.ts';
import { startTestApi } from '../helpers/api.ts';
import { addUser, dash, dashTenant, signIn, type DashboardAuth } from '../helpers/dashboard.ts';
import { startModelStandIn, type Reply } from './model-stand-in.ts';

const GIT_ENV = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };
const call = (name: string, args: unknown, tokens = 100): Reply => ({ toolCalls: [{ name, arguments: args }], tokens });
const WEBHOOKS = '---\ntitle: Webhooks\n---\n\n# Webhooks\n\nFolio sends a webhook for every deployment.\n';
const UPDATED = `${WEBHOOKS}\n## Retries\n\nA failed delivery is retried 3 times.\n`;

t.test('writing agent runs', async (t) => {
  const model = await startModelStandIn();
  t.teardown(() => model.close());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-agent-'));
  const env = parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir, AI_MODEL_PRIVATE_HOSTS: new URL(model.url).host, ...(process.env.MONGODB_URI ? { MONGODB_URI: process.env.MONGODB_URI } : {}) });
  const api = await startTestApi({ env });
  t.teardown(async () => { await api.close(); fs.rmSync(dataDir, { recursive: true, force: true }); });
  const deps = api.cp.deps;
  const m = api.cp.m;
  const pro = await dashTenant(api, 'pro', 'editor');
  const project = await api.project(await api.key(pro.orgId));
  const proj = (await m.Project.findById(project.id).lean())!;
  await saveSettings(m, env, pro.orgId, { base_url: model.url, model: 'agent-1' }, api.clock.now);

  // The project's repository with a few pages, pushed as a writer would.
  const gitdir = await localRepoDir(deps, proj);
  const wc = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-agent-wc-'));
  t.teardown(() => fs.rmSync(wc, { recursive: true, force: true }));
  await runGit(['init', '-q', '-b', 'main'], { cwd: wc });
  const files: Record<string, string> = { 'docs.json': '{"name":"Docs","navigation":[{"group":"Guides","pages":["index","guides/webhooks"]}]}\n', 'index.mdx': '# Home\n\nWelcome.\n', 'guides/webhooks.mdx': WEBHOOKS };
  for (const [f, text] of Object.entries(files)) { fs.mkdirSync(path.dirname(path.join(wc, f)), { recursive: true }); fs.writeFileSync(path.join(wc, f), text); }
  await runGit(['add', '-A'], { cwd: wc });
  await runGit(['commit', '-q', '-m', 'docs'], { cwd: wc, env: GIT_ENV });
  await runGit(['push', '-q', gitdir, 'HEAD:refs/heads/main'], { cwd: wc });
  const productionHead = await headCommit(deps, project.id);

  // A stand-in builder: finishes each queued deployment of the project, with one warning.
  const builder = setInterval(() => {
    void m.Deployment.updateMany({ project_id: project.id, status: 'queued' }, { $set: { status: 'deployed', pages_failed: 0, warnings: ['guides/webhooks.mdx: heading "Retries" has no anchor text'], finished_at: new Date() } }).catch(() => undefined);
  }, 150);
  t.teardown(() => clearInterval(builder));

  const origin = new URL(api.url).origin;
  const start = (body: unknown, auth: DashboardAuth = pro.auth, id = project.id) => dash(api, 'POST', `/projects/${id}/agent/runs`, { auth, body });
  const events = async (runId: string, auth: DashboardAuth = pro.auth) => {
    const res = await fetch(`${origin}/dashboard/api/projects/${project.id}/agent/runs/${runId}/events`, { headers: { cookie: auth.cookie } });
    return (await res.text()).split('\n\n').filter((b) => b.startsWith('event: ')).map((b) => ({ event: b.split('\n')[0].slice(7), data: JSON.parse(b.split('\ndata: ')[1]) }));
  };

  t.test('should search, read, write, build and finish on its own branch, with each step in the events', async (t) => {
    model.script.push(
      call('search_docs', { query: 'webhooks' }),
      call('read_page', { path: 'guides/webhooks.mdx' }),
      { toolCalls: [{ name: 'read_page', arguments: { path: '../other-project/secrets.mdx' } }, { name: 'write_page', arguments: { path: 'guides/webhooks.mdx', content: UPDATED, project_id: 'another-project' } }] },
      call('write_page', { path: 'guides/webhooks.mdx', content: UPDATED }),
      call('run_build', {}),
      call('finish', { summary: 'Documented webhook retries.' }),
    );
    const res = await start({ task: 'Document webhook retries: 3 attempts.' });
    t.equal(res.status, 202, res.text);
    t.same([res.body.status, res.body.branch], ['running', `agent/${res.body.id}`]);
    const stream = await events(res.body.id);
    const steps = stream.filter((e) => e.event === 'step').map((e) => [e.data.kind, e.data.tool, e.data.ok, e.data.summary]);
    t.same(steps, [
      ['tool', 'search_docs', true, 'Searched for "webhooks": 1 page'],
      ['tool', 'read_page', true, 'Read guides/webhooks.mdx'],
      ['tool', 'read_page', false, 'read_page refused: path: must stay inside the project: no "..", "." or empty segments'],
      ['tool', 'write_page', false, 'write_page refused: unknown argument "project_id" (this run works on one project only)'],
      ['tool', 'write_page', true, 'Changed guides/webhooks.mdx'],
      ['tool', 'run_build', true, 'Build succeeded with 1 warning'],
      ['tool', 'finish', true, 'Documented webhook retries.'],
    ].flatMap((s, i) => (i === 5 ? [['commit', null, true, steps[5]?.[3]], s] : [s])));
    t.match(steps[5][3], /^Committed 1 file to agent\/[0-9a-f-]+ \([0-9a-f]{7}\)$/);
    const done = stream.at(-1)!;
    t.equal(done.event, 'done');
    const run = done.data;
    t.same([run.status, run.outcome, run.branch, run.credits, run.tokens], ['finished', 'Documented webhook retries.', `agent/${res.body.id}`, 6, 600]);
    t.same(run.files, [{ path: 'guides/webhooks.mdx', deleted: false, renamed_from: null }]);
    t.match(run.diff, '+## Retries\n+\n+A failed delivery is retried 3 times.');
    t.match(run.diff, '--- a/guides/webhooks.mdx\n+++ b/guides/webhooks.mdx\n');
    t.ok(run.preview_url && run.deployment_id, 'a preview deployment of the branch');
    t.equal((await readRepoFile(deps, project.id, run.commit, 'guides/webhooks.mdx'))!.toString(), UPDATED, 'the branch has the change');
    t.equal(await headCommit(deps, project.id), productionHead, 'the production branch did not move');
    const build = model.requests[5].body.messages.at(-1);
    t.equal(build.role, 'tool');
    t.match(JSON.parse(build.content), { status: 'deployed', warnings: ['guides/webhooks.mdx: heading "Retries" has no anchor text'] }, 'the model read the build\'s warnings');
    const read = model.requests[2].body.messages;
    t.same([read[0].role, read[1].content, read.at(-1).role], ['system', '<task>\nDocument webhook retries: 3 attempts.\n</task>', 'tool'], 'the page read reaches the model as a tool result, never as instructions');
    t.match(JSON.parse(read.at(-1).content).content, 'Folio sends a webhook for every deployment.');
    t.same(model.requests[0].body.tools.map((x: any) => x.function.name), ['search_docs', 'read_page', 'write_page', 'move_page', 'read_openapi', 'run_build', 'finish']);
    const audit = await m.AuditEntry.find({ org_id: pro.orgId, action: { $in: ['agent_run.started', 'agent_run.finished'] } }).sort({ at: 1 }).lean();
    t.same(audit.map((a) => [a.action, (a.details as any).run_id]), [['agent_run.started', run.id], ['agent_run.finished', run.id]]);
    const counter = await m.UsageCounter.findOne({ org_id: pro.orgId, feature: 'agent_credits_monthly' }).lean();
    t.equal(counter!.used, 6, 'credits counted on the month\'s counter');

    // The writer merges the branch (the editor's merge).
    const merged = await mergeBranch(deps, proj, run.branch, { userId: pro.userId, author: { name: 'Ada', email: 'ada@example.com' } });
    t.equal((await readRepoFile(deps, project.id, merged.commit, 'guides/webhooks.mdx'))!.toString(), UPDATED, 'merged into production');

    const list = await dash(api, 'GET', `/projects/${project.id}/agent/runs`, { auth: pro.auth });
    t.same([list.status, list.body.data[0].id, list.body.data[0].steps], [200, run.id, 8]);
  });

  t.test('should stop cleanly at the step bound and at the credit bound', async (t) => {
    model.fallback = () => call('search_docs', { query: 'webhooks' });
    const bySteps = await start({ task: 'Search forever', max_steps: 2 });
    const s = (await events(bySteps.body.id)).at(-1)!.data;
    t.same([s.status, s.outcome, s.steps.length], ['stopped', 'Stopped at the run\'s limit of 2 steps', 2]);
    model.fallback = () => call('search_docs', { query: 'webhooks' }, 1_500);
    const byCredits = await start({ task: 'Search expensively', max_credits: 3 });
    const c = (await events(byCredits.body.id)).at(-1)!.data;
    t.same([c.status, c.outcome, c.credits, c.steps.length], ['stopped', 'Stopped at the run\'s limit of 3 credits (4 spent)', 4, 2]);
    t.equal(c.commit, null, 'nothing written, nothing committed');
  });

  t.test('should cancel a run, committing nothing', async (t) => {
    model.fallback = () => ({ silent: true });
    const res = await start({ task: 'Wait' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancel = await dash(api, 'POST', `/projects/${project.id}/agent/runs/${res.body.id}/cancel`, { auth: pro.auth });
    t.equal(cancel.status, 202);
    const end = (await events(res.body.id)).at(-1)!.data;
    t.same([end.status, end.outcome], ['cancelled', 'Cancelled by the writer']);
    const again = await dash(api, 'POST', `/projects/${project.id}/agent/runs/${res.body.id}/cancel`, { auth: pro.auth });
    t.same([again.status, again.body], [409, { error: 'run_finished', message: 'This run has already ended (cancelled); nothing to cancel' }]);
    // A run whose process stopped (no loop anywhere) is ended by cancel at once.
    const ghost = await agentRunModel(m).create({ org_id: pro.orgId, project_id: project.id, user_id: pro.userId, task: 'Ghost', branch: 'agent/ghost', base_commit: null, max_steps: 5, max_credits: 5, created_at: new Date() });
    const ended = await dash(api, 'POST', `/projects/${project.id}/agent/runs/${ghost._id}/cancel`, { auth: pro.auth });
    t.equal(ended.status, 202);
    t.same((await agentRunModel(m).findById(ghost._id).lean())!.status, 'cancelled');
    model.fallback = () => ({ text: 'OK' });
  });

  t.test('should refuse bad tasks, the free plan, no model, viewers, other organizations and API keys', async (t) => {
    t.same(await start({ task: ' ' }).then((r) => [r.status, r.body]), [400, { error: 'invalid_request', message: 'Task is required: say what the agent should do' }]);
    t.same(await start({ task: 'x', max_steps: 99 }).then((r) => [r.status, r.body]), [400, { error: 'invalid_request', message: 'Steps must be 1-50' }]);
    const free = await dashTenant(api, 'free');
    const freeProject = await api.project(await api.key(free.orgId));
    t.same(await start({ task: 'x' }, free.auth, freeProject.id).then((r) => [r.status, r.body]), [402, { error: 'plan_required', message: 'The Writing agent feature needs the Pro plan or higher', upgrade_url: 'https://folio.dev/pricing' }]);
    const bare = await dashTenant(api, 'pro');
    const bareProject = await api.project(await api.key(bare.orgId));
    t.same(await start({ task: 'x' }, bare.auth, bareProject.id).then((r) => r.body.error), 'ai_model_not_configured');
    t.same(await start({ task: 'x' }, bare.auth).then((r) => [r.status, r.body]), [404, { error: 'not_found', message: 'project not found' }]);
    const viewer = await addUser(api, pro.orgId, 'viewer');
    const asViewer = await signIn(api, viewer.email);
    t.same(await start({ task: 'x' }, asViewer).then((r) => [r.status, r.body]), [403, { error: 'forbidden_role', message: 'This action needs the owner, admin or editor role; you are a viewer' }]);
    const runs = await dash(api, 'GET', `/projects/${project.id}/agent/runs`, { auth: bare.auth });
    t.same([runs.status, runs.body], [404, { error: 'not_found', message: 'project not found' }]);
    const someRun = (await dash(api, 'GET', `/projects/${project.id}/agent/runs`, { auth: pro.auth })).body.data[0].id;
    const crossEvents = await fetch(`${origin}/dashboard/api/projects/${project.id}/agent/runs/${someRun}/events`, { headers: { cookie: bare.auth.cookie } });
    t.same([crossEvents.status, await crossEvents.json()], [404, { error: 'not_found', message: 'project not found' }]);
    const keyed = await fetch(`${origin}/dashboard/api/projects/${project.id}/agent/runs`, { method: 'POST', headers: { authorization: `Bearer ${await api.key(pro.orgId)}`, 'content-type': 'application/json' }, body: '{"task":"x"}' });
    t.same([keyed.status, (await keyed.json()).error], [401, 'unauthorized']);
  });
});
