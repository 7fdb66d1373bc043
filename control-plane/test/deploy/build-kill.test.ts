import { readdirSync, readFileSync } from 'node:fs';
import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';

/** Pids of compile sandboxes running on this machine. */
function sandboxes(): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try { return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('/sandbox/entry.ts'); } catch { return false; }
  }).map(Number);
}

t.test('a build process past its time', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  // Killed after 4 s: long before the page's own limits (10 s of CPU) would stop the loop.
  const worker = tp.startWorker({ BUILD_KILL_MS: '4000' });
  await worker.waitFor(/polling/);
  const before = new Set(sandboxes());
  const project = (await tp.api('POST', '/projects', { name: 'Stuck', slug: 'stuck' })).body;
  const wc = await tp.workingCopy('stuck', { 'docs.json': JSON.stringify({ name: 'Stuck' }), 'docs/index.mdx': '{(() => { while (true) {} })()}\n' });
  const sha = await wc.push();

  t.test('should be killed with its sandboxes, and the deployment retried then failed', async (t) => {
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha && x.status === 'failed', 300_000);
    t.equal(d.error, 'The build process ended unexpectedly on the platform\'s side; it will be retried');
    await worker.waitFor(/finished:reported/);
    t.same(sandboxes().filter((pid) => !before.has(pid)), [], 'no sandbox outlives its build process');
  });
});
