/**
 * Builder worker process (the builder image's default command, and what `npm start` runs).
 *
 * Environment: `CONTROL_PLANE_URL` (e.g. http://control-plane:4000), `WORKER_SECRET`,
 * `WORK_DIR` (clones; default a temp folder), and the store: `S3_*` as in the README, or
 * `DATA_DIR` for a local store (default ./data). After reading its settings the process removes
 * every variable but the harmless ones from `process.env`, so customer MDX, which runs in this
 * process, finds no secret there. SIGTERM: the job in progress gets `GRACEFUL_MS` (default 60 s)
 * to finish, then is handed back. `HEALTH_FILE` (unset: none): a file rewritten every few seconds
 * for the container's health check.
 */
import os from 'node:os';
import path from 'node:path';
import { createCompiler } from '../compile/index.ts';
import { PageMemory } from '../page-bodies.ts';
import { scrubbedEnv } from '../limits/scrubbed-env.ts';
import { storeFromEnv } from '../store/store-from-env.ts';
import { startHealthFile } from './health-file.ts';
import { startWorker } from './run-worker.ts';

const env = { ...process.env };
const controlPlaneUrl = env.CONTROL_PLANE_URL;
const workerSecret = env.WORKER_SECRET;
if (!controlPlaneUrl || !workerSecret) {
  console.error('CONTROL_PLANE_URL and WORKER_SECRET are required');
  process.exit(1);
}
const store = storeFromEnv(env, path.resolve(env.DATA_DIR ?? './data'));
const workDir = env.WORK_DIR ?? path.join(os.tmpdir(), `folio-worker-${process.pid}`);
if (env.HEALTH_FILE) startHealthFile(env.HEALTH_FILE);
const safe = scrubbedEnv(env);
for (const name of Object.keys(process.env)) if (!(name in safe)) delete process.env[name];

// One compiler for the process's life: a one-page edit then costs no Vite or highlighter start
// (about 0.8 s). Its worker threads end when idle (see compile/worker-pool.ts). Compiled pages
// are kept too (40 M characters at most), so the next edit's shells and search shard do not
// read them back from the store.
const compiler = await createCompiler();
const worker = startWorker({
  controlPlaneUrl, workerSecret, store, workDir, compiler, pageMemory: new PageMemory(),
  pollMs: Number(env.POLL_MS ?? 500),
  gracefulMs: Number(env.GRACEFUL_MS ?? 60_000),
  // One line per phase on stdout: operators read it, and the crash tests time their kills by it.
  onPhase: (phase, job) => console.log(`phase ${phase} ${job.deployment_id}`),
  log: (message) => console.error(message),
});
console.log(`worker ${worker.id} polling ${controlPlaneUrl}`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    worker.stop().then(() => compiler.close()).then(() => process.exit(0));
  });
}
