import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';

// 200 jobs through one real worker: what it holds after each job (listeners on its stop signal,
// timers, clone folders, temporary folders, heap) must come back to what it held after the first
// few, and nothing may stay in the temporary folder once it stops.
const JOBS = Number(process.env.LEAK_JOBS ?? 200);
const BASELINE_AT = 10;

interface Resources { abortListeners: number; active: Record<string, number>; heapUsedBytes: number; rssBytes: number; clones: number }

t.test('worker leaks', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  // A temporary folder of the worker's own, so every folder it (or a build below it) leaves is seen.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-leak-'));
  // Sandboxes run as other users when the tests run as root: they must reach their scratch folder.
  fs.chmodSync(tmp, 0o711);
  t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const worker = tp.startWorker({ TMPDIR: tmp, WORK_DIR: '', WORKER_DIAGNOSTICS: '1', NODE_OPTIONS: '--expose-gc', POLL_MS: '50' });
  await worker.waitFor(/polling/);
  const project = (await tp.api('POST', '/projects', { name: 'Leaks', slug: 'leak-site' })).body;
  const wc = await tp.workingCopy('leak-site', {
    'docs.json': JSON.stringify({ name: 'Leaks' }),
    'docs/index.mdx': '---\ntitle: Home\n---\n\nHello.\n',
    'docs/guide.mdx': '---\ntitle: Guide\n---\n\n```ts\nexport const a = 1;\n```\n',
  });

  const samples: Resources[] = [];
  const tmpEntries: number[] = [];
  const runJob = async (i: number) => {
    // Every tenth job is a push with an edit (compiles a page); the others rebuild the same commit.
    let id: string;
    if (i % 10 === 0) {
      await wc.write({ 'docs/index.mdx': `---\ntitle: Home\n---\n\nHello ${i}.\n` });
      const sha = await wc.push();
      id = (await tp.p.cp.m.Deployment.findOne({ project_id: project.id, commit_sha: sha }).lean())!._id;
    } else {
      id = (await tp.api('POST', `/projects/${project.id}/deployments`)).body.id;
    }
    const seen = samples.length;
    const d = await tp.waitForDeployment(project.id, (x) => x.id === id);
    if (d.status !== 'deployed') throw new Error(`job ${i}: ${d.status} ${d.error}`);
    // The worker prints its resources after reporting; wait for this job's line.
    while (worker.lines.filter((l) => l.startsWith('resources ')).length <= seen) await new Promise((r) => setTimeout(r, 20));
    samples.push(JSON.parse(worker.lines.filter((l) => l.startsWith('resources ')).at(-1)!.slice('resources '.length)));
    tmpEntries.push(fs.readdirSync(tmp).length);
    if (process.env.LEAK_VERBOSE) t.comment(JSON.stringify((await tp.p.cp.m.Deployment.findById(id).lean())?.stats?.timings));
  };

  t.test(`should hold after ${JOBS} jobs what it held after ${BASELINE_AT}`, async (t) => {
    for (let i = 0; i < JOBS; i++) await runJob(i);
    const base = samples[BASELINE_AT - 1];
    const last = samples.at(-1)!;
    t.equal(Math.max(...samples.map((s) => s.abortListeners)), 0, 'no listener left on the worker\'s stop signal after any job');
    t.equal(last.active.Timeout ?? 0, base.active.Timeout ?? 0, 'as many timers as at the baseline');
    t.equal(last.clones, 1, 'one clone folder: the one project');
    t.equal(tmpEntries.at(-1), tmpEntries[BASELINE_AT - 1], 'as many temporary folders as at the baseline');
    const growth = last.heapUsedBytes - base.heapUsedBytes;
    t.ok(growth < 16 * 1024 * 1024, `heap after ${JOBS} jobs within 16 MB of job ${BASELINE_AT} (grew ${(growth / 1048576).toFixed(1)} MB)`);
    t.comment(`heap: ${(base.heapUsedBytes / 1048576).toFixed(1)} MB at job ${BASELINE_AT}, ${(last.heapUsedBytes / 1048576).toFixed(1)} MB at job ${JOBS}; rss ${(base.rssBytes / 1048576).toFixed(0)} → ${(last.rssBytes / 1048576).toFixed(0)} MB`);
    t.notMatch(worker.lines.join('\n'), /MaxListenersExceededWarning/);
  });

  t.test('should leave nothing in the temporary folder once stopped', async (t) => {
    worker.kill('SIGTERM');
    await new Promise((r) => worker.child.once('exit', r));
    t.equal(worker.child.exitCode, 0);
    // tsx (which runs the TypeScript in development) keeps its compile cache there: not the worker's.
    t.same(fs.readdirSync(tmp).filter((f) => !f.startsWith('tsx-')), [], 'the work folder and every build folder removed');
  });
});
