import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { startTestPlatform } from '../../control-plane/test/helpers/platform.ts';
import { spawnWorkers, type SpawnWorkersOptions, type Workers } from '../src/spawn-workers.ts';

const exited = (c: ChildProcess) => new Promise<void>((resolve) => { if (c.exitCode !== null || c.signalCode !== null) resolve(); else c.once('exit', () => resolve()); });

t.test('spawn workers', async (t) => {
  const tp = await startTestPlatform({ BUILD_LEASE_MS: '1000' });
  t.teardown(() => tp.close());

  /** Real worker processes against the test platform; supervision messages and worker output are collected. */
  function supervise(count: number, more: Partial<SpawnWorkersOptions> = {}) {
    const messages: string[] = [];
    const output: string[] = [];
    const listeners: ((line: string, slot: number) => void)[] = [];
    const workers: Workers = spawnWorkers(count, {
      controlPlaneUrl: tp.p.internalUrl, workerSecret: 'test-worker-secret', extraEnv: { POLL_MS: '100' },
      backoff: { initialMs: 50 }, stopTimeoutMs: 20_000,
      log: (m) => messages.push(m),
      onOutput: (slot, line) => { output.push(`${slot}: ${line}`); for (const l of [...listeners]) l(line, slot); },
      ...more,
    });
    /** Resolves once `child` has printed that it polls (its signal handlers are then installed). */
    const ready = (child: ChildProcess, slot = 0) => new Promise<void>((resolve) => {
      const on = (line: string, from: number) => { if (from === slot && /polling/.test(line)) { listeners.splice(listeners.indexOf(on), 1); resolve(); } };
      listeners.push(on);
      child.once('exit', () => resolve());
    });
    return { workers, messages, output, listeners, ready };
  }

  t.test('should restart a worker killed by SIGKILL and log the signal', async (t) => {
    const { workers, messages, ready } = supervise(1);
    t.teardown(() => workers.stop());
    const first = workers.slots[0].child!;
    first.kill('SIGKILL');
    await exited(first);
    const second = await workers.nextStart(0);
    t.not(second.pid, first.pid, 'a new process');
    t.equal(workers.slots[0].restarts, 1);
    t.same(messages, [`builder worker 0 (pid ${first.pid}) killed by SIGKILL; starting it again in 50 ms`]);
    await ready(second);
    const workDir = path.join(os.tmpdir(), `folio-worker-${process.pid}-0`);
    t.ok(fs.existsSync(workDir), 'the restarted worker uses its slot\'s work folder');
    await workers.stop();
    t.equal(second.exitCode, 0, 'the restarted worker stops cleanly on SIGTERM');
    t.equal(fs.existsSync(workDir), false, 'the work folder is removed on stop');
  });

  t.test('should restart a worker that exits on its own, with a growing backoff', async (t) => {
    const { workers, messages, ready } = supervise(1);
    t.teardown(() => workers.stop());
    const pids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const child = await workers.nextStart(0);
      await ready(child);
      pids.push(child.pid!);
      // SIGTERM sent by someone else than the supervisor: the worker finishes and exits 0.
      child.kill('SIGTERM');
      await exited(child);
    }
    await workers.nextStart(0);
    t.same(messages, [
      `builder worker 0 (pid ${pids[0]}) exited with code 0; starting it again in 50 ms`,
      `builder worker 0 (pid ${pids[1]}) exited with code 0; starting it again in 100 ms`,
      `builder worker 0 (pid ${pids[2]}) exited with code 0; starting it again in 200 ms`,
    ]);
    t.equal(workers.slots[0].restarts, 3);
  });

  t.test('should stop at once when a child already died and waits for its restart', async (t) => {
    const { workers, messages, ready } = supervise(2, { backoff: { initialMs: 3_600_000, maxMs: 3_600_000 } });
    const [a, b] = workers.slots.map((s) => s.child!);
    await ready(b, 1);
    a.kill('SIGKILL');
    await exited(a);
    t.equal(a.exitCode, null, 'a child killed by a signal has no exit code');
    t.equal(a.signalCode, 'SIGKILL');
    // Before the fix, stop() waited for an 'exit' event of `a` that had already fired: this hung.
    await workers.stop();
    t.equal(b.exitCode, 0);
    t.equal(workers.slots[0].child, undefined, 'the pending restart was cancelled');
    t.same(messages, [`builder worker 0 (pid ${a.pid}) killed by SIGKILL; starting it again in 3600000 ms`]);
  });

  t.test('should kill a stuck worker that ignores SIGTERM once the stop timeout passes', async (t) => {
    const { workers, messages, ready } = supervise(1, { stopTimeoutMs: 500 });
    const child = workers.slots[0].child!;
    await ready(child);
    // A stopped process cannot handle SIGTERM: the same as a worker wedged in a loop.
    process.kill(child.pid!, 'SIGSTOP');
    await workers.stop();
    t.equal(child.signalCode, 'SIGKILL');
    t.same(messages, [`builder worker 0 (pid ${child.pid}) did not stop within 500 ms of SIGTERM; killing it`]);
    t.equal(workers.slots[0].child, undefined, 'not restarted while stopping');
  });

  t.test('should fail a job whose builder dies every time, and go on building others', async (t) => {
    const poison = (await tp.api('POST', '/projects', { name: 'Poison', slug: 'poison-site' })).body;
    const healthy = (await tp.api('POST', '/projects', { name: 'Healthy', slug: 'healthy-site' })).body;
    const { workers, messages, listeners } = supervise(1);
    t.teardown(() => workers.stop());
    // Whenever the worker claims the poison project's deployment, it dies (as a build that takes
    // its worker down would make it).
    let deaths = 0;
    listeners.push((line) => {
      const m = /^phase claimed (\S+)/.exec(line);
      if (!m) return;
      void tp.p.cp.m.Deployment.findById(m[1]).lean().then((d) => {
        if (d?.project_id !== poison.id) return;
        deaths++;
        workers.slots[0].child?.kill('SIGKILL');
      });
    });
    const wcPoison = await tp.workingCopy('poison-site', { 'docs.json': JSON.stringify({ name: 'Poison' }), 'docs/index.mdx': '# Poison\n' });
    await wcPoison.push();
    const failed = await tp.waitForDeployment(poison.id, () => true);
    t.same([failed.status, failed.error], ['failed',
      'The builder stopped while building this deployment 3 times (it crashed, ran out of memory or stopped responding); '
      + 'it is not retried again so that it cannot stop more builders. Trigger a new deployment to try again']);
    t.equal(deaths, 3, 'three builders died on it, no more');
    t.equal(messages.filter((m) => m.includes('killed by SIGKILL')).length, 3);
    const wcHealthy = await tp.workingCopy('healthy-site', { 'docs.json': JSON.stringify({ name: 'Healthy' }), 'docs/index.mdx': '# Healthy\n' });
    const sha = await wcHealthy.push();
    const ok = await tp.waitForDeployment(healthy.id, (d) => d.commit_sha === sha);
    t.equal(ok.status, 'deployed', ok.error ?? '');
  });
});
