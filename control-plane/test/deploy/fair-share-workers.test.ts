import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';

const SITE = {
  'docs.json': JSON.stringify({ name: 'Fair' }),
  'docs/index.mdx': '---\ntitle: Home\n---\n\nHello.\n',
};

// The claim order of a real worker over a queue that one organization filled first: the other
// organization's build goes second, not after every build of the first (first come, first
// served would put it last). Unit-level cases are in claim-job.test.ts.
t.test('fair share with a real worker', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const busy = await tp.newOrg('busy-org');
  const quiet = await tp.newOrg('quiet-org');
  const push = async (slug: string, asKey: string) => {
    const project = (await tp.api('POST', '/projects', { name: slug, slug }, asKey)).body;
    const wc = await tp.workingCopy(slug, SITE, asKey);
    await wc.push();
    return project.id as string;
  };
  // With no worker running, everything queues: four of the busy organization, then one of the quiet one.
  const busyIds: string[] = [];
  for (const n of [1, 2, 3, 4]) busyIds.push(await push(`busy-${n}`, busy.key));
  const quietId = await push('quiet-1', quiet.key);
  t.equal(await tp.p.cp.m.Deployment.countDocuments({ status: 'queued' }), 5, 'five deployments queued before any worker');

  tp.startWorker();
  for (const id of busyIds) await tp.waitForDeployment(id, () => true, 300_000, busy.key);
  await tp.waitForDeployment(quietId, () => true, 300_000, quiet.key);

  const claimed = await tp.p.cp.m.Deployment.find({ project_id: { $in: [...busyIds, quietId] } }).sort({ claimed_at: 1 }).lean();
  t.same(claimed.map((d) => d.status), ['deployed', 'deployed', 'deployed', 'deployed', 'deployed']);
  t.same(claimed.map((d) => (d.project_id === quietId ? 'quiet' : 'busy')), ['busy', 'quiet', 'busy', 'busy', 'busy'],
    'the quiet organization is served second, after one build of the busy one');
});
