import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { dashboardOrigin } from '../../src/env.ts';
import { failedPageLines } from '../../src/git/git-http.ts';
import { progressPacket } from '../../src/git/http-backend.ts';
import { configureLog } from '../../src/log/structured-log.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const run = promisify(execFile);
const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

t.test('push feedback', async (t) => {
  const tp = await startTestPlatform({ PUSH_WAIT_MS: '300000', LOG_FORMAT: 'json', LOG_LEVEL: 'info' });
  t.teardown(() => tp.close());
  const logged: string[] = [];
  configureLog({ write: (line) => logged.push(line) });
  t.teardown(() => configureLog({ format: 'text', level: 'info', write: (line) => process.stdout.write(`${line}\n`) }));
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);
  const project = (await tp.api('POST', '/projects', { name: 'Push', slug: 'push-feedback' })).body;
  const wc = await tp.workingCopy('push-feedback', {
    'docs.json': JSON.stringify({ name: 'Push' }),
    'docs/index.mdx': page('Welcome', 'Hello.'),
    'docs/broken.mdx': page('Broken', 'Broken <Unclosed\n\nmore'),
  });
  const env = tp.p.cp.deps.env;
  const siteUrl = env.siteUrlTemplate.replace('{slug}', 'push-feedback');
  /** `git push` with the CLI; the `remote:` lines it printed. */
  const push = async () => {
    const { stderr } = await run('git', ['push', 'origin', 'main'], { cwd: wc.dir });
    return stderr.split('\n').filter((l) => l.startsWith('remote:')).map((l) => l.trimEnd());
  };

  await t.test('should print where to follow the deployment and its outcome', async (t) => {
    const lines = await push();
    const [d] = (await tp.api('GET', `/projects/${project.id}/deployments`)).body.data;
    t.match(d.error, /^docs\/broken\.mdx:\d+:\d+: /, 'the failed page with its position');
    t.same(lines, [
      `remote: Deployment ${d.id} queued — follow it at ${dashboardOrigin(env)}/projects/${project.id}/deployments/${d.id}`,
      `remote: Deployed 2 pages (1 failed) → ${siteUrl}`,
      `remote:   ${d.error}`,
    ]);
  });

  await t.test('should log one JSON line per deployment outcome', async (t) => {
    const [d] = (await tp.api('GET', `/projects/${project.id}/deployments`)).body.data;
    const outcomes = logged.map((l) => JSON.parse(l)).filter((e) => e.event === 'deployment.finished');
    t.equal(outcomes.length, 1);
    const { time, duration_ms: duration, message, ...rest } = outcomes[0];
    t.match(time, /^\d{4}-\d\d-\d\dT/);
    t.ok(duration >= 0, 'duration_ms');
    t.match(message, new RegExp(`^deployment ${d.id} of project ${project.id} deployed: 2 pages \\(1 failed\\) in \\d+\\.\\d s$`));
    t.same(rest, {
      level: 'info', event: 'deployment.finished', project: project.id, deployment: d.id, status: 'deployed', commit: d.commit_sha,
      pages_total: 2, pages_failed: 1, error: d.error,
    });
  });

  await t.test('should print the error of a failed deployment', async (t) => {
    await wc.write({ 'docs.json': '{ "name": 1 }' });
    const lines = await push();
    const [d] = (await tp.api('GET', `/projects/${project.id}/deployments`)).body.data;
    t.equal(d.status, 'failed');
    t.same(lines, [
      `remote: Deployment ${d.id} queued — follow it at ${dashboardOrigin(env)}/projects/${project.id}/deployments/${d.id}`,
      `remote: Deployment failed: ${d.error}`,
    ]);
    t.match(d.error, /^docs\.json: name: /);
    const failed = logged.map((l) => JSON.parse(l)).filter((e) => e.event === 'deployment.finished' && e.status === 'failed');
    t.same([failed.length, failed[0].level, failed[0].error], [1, 'error', d.error]);
  });

  await t.test('should keep the project active while the last good site is live', async (t) => {
    const [failed, live] = (await tp.api('GET', `/projects/${project.id}/deployments`)).body.data;
    t.same([failed.status, live.status], ['failed', 'deployed']);
    const res = await tp.api('GET', `/projects/${project.id}`);
    t.same(res.body, {
      id: project.id, name: 'Push', slug: 'push-feedback', status: 'active', created_at: project.created_at, github_repo: null,
      custom_domain: null, github_branch: 'main', last_deploy_at: res.body.last_deploy_at,
    });
    t.equal(res.body.last_deploy_at, live.finished_at, 'the live deployment\'s time');
  });

  await t.test('should list at most 10 failed pages, then how many more', async (t) => {
    const error = Array.from({ length: 12 }, (_, i) => `docs/p${i}.mdx:${i + 1}:1: Unexpected end of file`).join('\n');
    t.same(failedPageLines({ status: 'deployed', pages_failed: 12, error }), [
      ...Array.from({ length: 10 }, (_, i) => `  docs/p${i}.mdx:${i + 1}:1: Unexpected end of file`),
      '  …and 2 more',
    ]);
    t.same(failedPageLines({ status: 'failed', pages_failed: null, error: 'docs.json: name: …' }), [], 'a failed build prints its error once');
  });

  await t.test('should write a progress packet on side-band 2', async (t) => {
    t.equal(progressPacket('Hi').toString('latin1'), '0008\u0002Hi\n');
  });
});
