import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';

// A worker is killed with SIGKILL at each phase of a build, five times per phase. Every job must
// still reach a final state (another worker takes it over once the lease runs out), and the site
// must show exactly one complete version: every page of the new commit, nothing half-published.
const PHASES = ['claimed', 'compile', 'publish'] as const;
const RUNS = Number(process.env.CRASH_RUNS ?? 5);
const PAGES = 12;

const pages = (run: number) => Object.fromEntries(Array.from({ length: PAGES }, (_, i) => [
  `docs/page-${i}.mdx`,
  `---\ntitle: Page ${i}\n---\n\nRun marker: run-${run}-page-${i}.\n\n\`\`\`ts title="x.ts"\nexport const run = ${run};\n\`\`\`\n`,
]));

t.test('worker crashes', async (t) => {
  const tp = await startTestPlatform({ BUILD_LEASE_MS: '2500' });
  t.teardown(() => tp.close());
  const project = (await tp.api('POST', '/projects', { name: 'Crash', slug: 'crash-site' })).body;
  const wc = await tp.workingCopy('crash-site', { 'docs.json': JSON.stringify({ name: 'Crash' }), ...pages(0) });
  let run = 0;

  for (const phase of PHASES) {
    t.test(`should finish every job when a worker dies at "${phase}"`, async (t) => {
      for (let i = 0; i < RUNS; i++) {
        run++;
        await wc.write(pages(run));
        const sha = await wc.push();
        const doomed = tp.startWorker();
        await doomed.waitFor(new RegExp(`^phase ${phase} `));
        doomed.kill('SIGKILL');
        await new Promise((r) => doomed.child.once('exit', r));
        const rescuer = tp.startWorker();
        const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
        rescuer.kill('SIGTERM');
        await new Promise((r) => rescuer.child.once('exit', r));
        t.equal(d.status, 'deployed', `run ${run}: final state ${d.status} ${d.error ?? ''}`);
        t.equal(d.pages_success, PAGES, `run ${run}: every page`);
        const bodies = await Promise.all(Array.from({ length: PAGES }, (_, p) => tp.site('crash-site', `/page-${p}`)));
        const stale = bodies.filter((b, p) => !b.body.includes(`run-${run}-page-${p}`)).length;
        t.equal(stale, 0, `run ${run}: the site shows the new commit on every page (none half-published)`);
        const stored = await tp.p.cp.m.Deployment.findById(d.id).lean();
        t.ok((stored!.fencing ?? 0) >= 2, `run ${run}: taken over by a second lease (fencing ${stored!.fencing})`);
      }
    });
  }

  t.test('should have left no deployment unfinished', async (t) => {
    const open = await tp.p.cp.m.Deployment.countDocuments({ project_id: project.id, finished_at: null });
    t.equal(open, 0);
  });
});
