/**
 * One deployment's build process, started by the worker for each job it claims
 * (`run-build-process.ts`). It holds that job's build token and nothing else: no worker secret,
 * no storage or database credentials, an environment of `PATH`, `HOME` and locale only. It clones,
 * plans, renders and publishes; pages compile in sandbox processes below it. It publishes
 * through the control plane's object routes, which confine it to its project's prefix and end
 * with the lease.
 *
 * In (IPC): `{ type: 'job', job, controlPlaneUrl, workDir }`, then maybe `{ type: 'abort' }`.
 * Out: `{ type: 'phase', phase }`, and last `{ type: 'outcome', outcome }`.
 */
import path from 'node:path';
import { createHttpStore } from '../ci/http-store.ts';
import { createCompiler } from '../compile/index.ts';
import { ControlPlaneClient, type Job } from './control-plane-client.ts';
import { runJob } from './run-job.ts';

/** What the worker sends a build process. */
export interface BuildRequest { type: 'job'; job: Job; controlPlaneUrl: string; workDir: string }

const abort = new AbortController();
const send = (msg: unknown) => new Promise<void>((resolve) => { if (process.connected) process.send!(msg, () => resolve()); else resolve(); });

process.on('message', async (msg: BuildRequest | { type: 'abort' }) => {
  if (msg.type === 'abort') { abort.abort(); return; }
  if (msg.type !== 'job') return;
  const { job, controlPlaneUrl } = msg;
  const compiler = await createCompiler({ log: (line) => console.error(line) });
  // The first sandbox starts while the repository is fetched.
  compiler.prepare();
  const store = createHttpStore({ url: new URL(job.store.url, `${controlPlaneUrl}/`).href, token: job.token, fencing: job.fencing });
  const outcome = await runJob(job, {
    client: new ControlPlaneClient(controlPlaneUrl), compiler, signal: abort.signal, store,
    // One clone folder per project, kept between jobs so the next build fetches less.
    source: { kind: 'remote', url: job.source.url, branch: job.source.branch, token: job.source.token ?? undefined, workDir: path.join(msg.workDir, job.project.id) },
    onPhase: (phase) => void send({ type: 'phase', phase }),
  }).catch((err: unknown) => {
    console.error(`job ${job.deployment_id} could not be reported: ${(err as Error).message}`);
    return 'error' as const;
  });
  await compiler.close();
  await send({ type: 'outcome', outcome });
  process.exit(0);
});
// The worker went away: its lease will lapse and another worker takes the job.
process.on('disconnect', () => process.exit(1));
