/**
 * Builder worker process (the builder image's default command, and what `npm start` runs).
 *
 * Environment: `CONTROL_PLANE_URL` (e.g. http://control-plane:4000), `WORKER_SECRET`, `WORK_DIR`
 * (clones, one folder per project, the 20 (`MAX_CLONES`) most recently built kept; default a temp
 * folder, created private and removed when the worker stops). `CLAIM_WAIT_MS` (default 20 s, at
 * most 30 s; 0: poll only): how long a claim waits on the control plane for a job, so a queued job
 * starts at once; `POLL_MS` (default 500 ms): the poll interval when a claim did not wait. The worker needs no
 * storage or database settings: each job runs in a build process of its own that publishes
 * through the control plane with the job's token. After reading its settings the process removes
 * every variable but the harmless ones from `process.env`, and build processes start with only
 * those. SIGTERM: the job in progress gets `GRACEFUL_MS` (default 60 s) to finish, then is handed
 * back. `BUILD_KILL_MS`: wall time after which a build process (and its sandboxes) is killed
 * (default the build limit plus two minutes). `HEALTH_FILE` (unset: none): a file rewritten every few seconds for the container's
 * health check. `WORKER_DIAGNOSTICS=1`: after each job, a line `resources {…}` (listeners on the
 * stop signal, active handles by type, heap, clones), which the leak test reads.
 */
import { mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scrubbedEnv } from '../limits/scrubbed-env.ts';
import { startHealthFile } from './health-file.ts';
import { startWorker } from './run-worker.ts';

const env = { ...process.env };
const controlPlaneUrl = env.CONTROL_PLANE_URL;
const workerSecret = env.WORKER_SECRET;
if (!controlPlaneUrl || !workerSecret) {
  console.error('CONTROL_PLANE_URL and WORKER_SECRET are required');
  process.exit(1);
}
const workDir = path.resolve(env.WORK_DIR ?? path.join(os.tmpdir(), `folio-worker-${process.pid}`));
// A folder the worker made for itself is its own to remove; a configured one is kept (clones stay warm across restarts).
const ownWorkDir = !env.WORK_DIR;
const diagnostics = env.WORKER_DIAGNOSTICS === '1';
// Private: sandboxes run as other users and must not read any project's clone.
mkdirSync(workDir, { recursive: true, mode: 0o700 });
if (env.HEALTH_FILE) startHealthFile(env.HEALTH_FILE);
const safe = scrubbedEnv(env);
for (const name of Object.keys(process.env)) if (!(name in safe)) delete process.env[name];

const worker = startWorker({
  controlPlaneUrl, workerSecret, workDir,
  pollMs: Number(env.POLL_MS ?? 500),
  // A claim waits this long on the control plane for a job; 0 polls every POLL_MS only.
  claimWaitMs: Number(env.CLAIM_WAIT_MS ?? 20_000),
  gracefulMs: Number(env.GRACEFUL_MS ?? 60_000),
  // Unset: the build limit plus two minutes.
  ...(env.BUILD_KILL_MS ? { killAfterMs: Number(env.BUILD_KILL_MS) } : {}),
  ...(env.MAX_CLONES ? { maxClones: Number(env.MAX_CLONES) } : {}),
  // One line per phase on stdout: operators read it, and the crash tests time their kills by it.
  onPhase: (phase, job) => {
    console.log(`phase ${phase} ${job.deployment_id}`);
    if (diagnostics && phase.startsWith('finished:')) {
      // With --expose-gc, measure what is still reachable, not what awaits collection.
      (globalThis as { gc?: () => void }).gc?.();
      console.log(`resources ${JSON.stringify(worker.resources())}`);
    }
  },
  log: (message) => console.error(message),
});
console.log(`worker ${worker.id} polling ${controlPlaneUrl}`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    worker.stop().then(() => {
      if (ownWorkDir) rmSync(workDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}
