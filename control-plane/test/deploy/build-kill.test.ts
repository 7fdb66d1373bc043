import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';

/**
 * Pids of the compile sandboxes whose scratch folder is under `tmp`: this test's worker's, and no
 * other test's running beside it on the machine.
 */
function sandboxes(tmp: string): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      return cmdline.includes('/sandbox/entry.ts') && cmdline.includes(tmp);
    } catch { return false; }
  }).map(Number);
}

t.test('a build process past its time', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  // The worker's temporary folder, where its builds' sandboxes get their scratch folders.
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'folio-kill-'));
  t.teardown(() => rmSync(tmp, { recursive: true, force: true }));
  // The page waits forever, so only wall time can stop it: the build process is killed after
  // 30 s, long before the page's own limit (60 s in all, counted from a later start) and long
  // after its sandbox starts on a loaded machine (a CPU loop would race the 10 s CPU limit).
  const worker = tp.startWorker({ BUILD_KILL_MS: '30000', TMPDIR: tmp });
  await worker.waitFor(/polling/);
  const project = (await tp.api('POST', '/projects', { name: 'Stuck', slug: 'stuck' })).body;
  const wc = await tp.workingCopy('stuck', { 'docs.json': JSON.stringify({ name: 'Stuck' }), 'docs/index.mdx': 'export const never = await new Promise(() => {})\n\nNever.\n' });
  const sha = await wc.push();

  t.test('should be killed with its sandboxes, and the deployment retried then failed', async (t) => {
    // The build's sandboxes are seen first, so their absence later means they were killed.
    let seen = false;
    for (let i = 0; i < 1200 && !seen; i++) {
      seen = sandboxes(tmp).length > 0;
      if (!seen) await new Promise((r) => setTimeout(r, 50));
    }
    t.ok(seen, 'the build started sandboxes under the worker\'s temporary folder');
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha && x.status === 'failed', 300_000);
    t.equal(d.error, 'The build process ended unexpectedly on the platform\'s side; it will be retried');
    await worker.waitFor(/finished:reported/);
    t.same(sandboxes(tmp), [], 'no sandbox outlives its build process');
  });
});
