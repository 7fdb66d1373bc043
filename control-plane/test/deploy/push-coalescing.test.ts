import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';

const page = (n: number) => ({ 'docs/index.mdx': `---\ntitle: Home\n---\n\nVersion ${n}.\n` });

t.test('push coalescing', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const project = (await tp.api('POST', '/projects', { name: 'Quick', slug: 'quick-pushes' })).body;
  const wc = await tp.workingCopy('quick-pushes', { 'docs.json': JSON.stringify({ name: 'Quick' }), ...page(0) });
  const list = async () => (await tp.api('GET', `/projects/${project.id}/deployments?limit=100`)).body.data as { id: string; status: string; commit_sha: string | null }[];

  t.test('should have queued the deployment by the time git push returns', async (t) => {
    const seen: (string | null)[] = [];
    const pushed: string[] = [];
    for (let i = 1; i <= 5; i++) {
      await wc.write(page(i));
      pushed.push(await wc.push());
      // No waiting: the list is read as soon as the push command has exited.
      const queued = (await list()).filter((d) => d.status === 'queued');
      seen.push(queued.length === 1 ? queued[0].commit_sha : `${queued.length} queued`);
    }
    t.same(seen, pushed, 'after each push, one queued deployment carrying the pushed commit (later pushes join it)');
  });

  t.test('should build every commit at most once when pushes come quickly, and end on the newest', async (t) => {
    const worker = tp.startWorker();
    await worker.waitFor(/polling/);
    let last = '';
    // Three quick pushes while the worker is idle, then three more while it builds.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3; i++) {
        await wc.write(page(100 + round * 10 + i));
        last = await wc.push();
      }
      if (round === 0) await worker.waitFor(/^phase claimed /);
    }
    const final = await tp.waitForDeployment(project.id, (d) => d.commit_sha === last && d.status !== 'queued');
    t.equal(final.status, 'deployed', final.error ?? '');
    // Wait until nothing is open any more (a skipped sync ends at its claim).
    for (let open = 1; open > 0; await new Promise((r) => setTimeout(r, 200))) {
      open = await tp.p.cp.m.Deployment.countDocuments({ project_id: project.id, finished_at: null });
    }
    const rows = await tp.p.cp.m.Deployment.find({ project_id: project.id }).sort({ started_at: 1 }).lean();
    const built = rows.filter((d) => (d.fencing ?? 0) > 0).map((d) => d.commit_sha);
    t.same(built.length, new Set(built).size, `no commit built twice (built: ${built.map((s) => s?.slice(0, 7)).join(', ')})`);
    t.ok(built.length <= 4, `at most one build per burst plus one per push landing mid-build (${built.length} builds for 6 pushes)`);
    t.same(rows.map((d) => d.status).filter((s) => s !== 'deployed'), [], 'every deployment final and deployed');
    const home = await tp.site('quick-pushes', '/');
    t.match(home.body, /Version 112\./, 'the site shows the newest push');
    worker.kill('SIGTERM');
    await new Promise((r) => worker.child.once('exit', r));
  });
});
