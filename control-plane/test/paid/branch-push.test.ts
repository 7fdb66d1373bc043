import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { dashboardOrigin } from '../../src/env.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const run = promisify(execFile);

t.test('pushes to other branches', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const free = await tp.newOrg(`branch-free-${process.pid}`);
  await m.Organization.updateOne({ _id: free.orgId }, { $set: { plan: 'free' } });
  const project = (await tp.api('POST', '/projects', { name: 'Branches', slug: 'branches' }, free.key)).body;
  const wc = await tp.workingCopy('branches', { 'docs.json': JSON.stringify({ name: 'Branches' }), 'docs/index.mdx': '# Hi\n' }, free.key);
  await wc.push();
  const pushBranch = async (branch: string) => {
    const { stderr } = await run('git', ['push', 'origin', `main:${branch}`], { cwd: wc.dir });
    return stderr.split('\n').filter((l) => l.startsWith('remote:')).map((l) => l.trimEnd());
  };
  const deployments = async () => (await tp.api('GET', `/projects/${project.id}/deployments`, undefined, free.key)).body.data.length;

  t.test('should accept a push to another branch on free, build nothing and say why', async (t) => {
    const count = await deployments();
    t.same(await pushBranch('feature/new-page'), [
      'remote: Branch feature/new-page was pushed; only main deploys the site. Preview deployments of other branches need the Pro plan: https://folio.dev/pricing',
    ]);
    t.equal(await deployments(), count, 'no deployment queued');
    const { stdout } = await run('git', ['ls-remote', 'origin', 'refs/heads/feature/new-page'], { cwd: wc.dir });
    t.match(stdout, /refs\/heads\/feature\/new-page/, 'the branch is in the repository');
  });

  t.test('should queue a preview on pro and say where it will be served', async (t) => {
    await m.Organization.updateOne({ _id: free.orgId }, { $set: { plan: 'pro' } });
    const lines = await pushBranch('docs-fix');
    const queued = await m.Deployment.findOne({ project_id: project.id, branch: 'docs-fix' }).lean();
    const env = tp.p.cp.deps.env;
    t.same(lines, [
      `remote: Preview of branch docs-fix queued — follow it at ${dashboardOrigin(env)}/projects/${project.id}/deployments/${queued?._id}`,
      `remote: Preview URL: ${env.siteUrlTemplate.replace('{slug}', 'branches--docs-fix')}`,
    ]);
    t.same([queued?.status, queued?.preview_label, queued?.trigger], ['queued', 'docs-fix', 'push'], 'the preview waits for a builder');
  });
});
