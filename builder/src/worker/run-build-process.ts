/**
 * The worker's side of a build process (build-process.ts): starts it for one claimed job with a
 * scrubbed environment, hands it the job over IPC (never in its environment or arguments, which
 * other processes of the user can read), relays its phases, and asks it to hand the job back when
 * the worker stops. If it ends without reporting (killed, crashed, out of time), the worker
 * reports the build failed with the job's own token, so the deployment is retried.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { scrubbedEnv } from '../limits/scrubbed-env.ts';
import type { ControlPlaneClient, Job } from './control-plane-client.ts';
import type { BuildRequest } from './build-process.ts';

const BUILD_PROCESS = fileURLToPath(new URL('./build-process.ts', import.meta.url));

export type BuildOutcome = 'reported' | 'lease_lost' | 'released' | 'error';

export interface RunBuildProcessOptions {
  client: ControlPlaneClient;
  controlPlaneUrl: string;
  workDir: string;
  /** Aborted when the worker stops: the build process hands the job back. */
  signal: AbortSignal;
  /** Wall time after which the build process is killed (its own limits stop it well before). */
  killAfterMs: number;
  onPhase?(phase: string): void;
  log(message: string): void;
}

export function runBuildProcess(job: Job, opts: RunBuildProcessOptions): Promise<BuildOutcome> {
  return new Promise((resolve) => {
    // A process group of its own: ending it ends the compile sandboxes too, even one stuck in a
    // loop that would never notice its build process has gone.
    const child = spawn(process.execPath, [...process.execArgv, BUILD_PROCESS], {
      env: scrubbedEnv(), stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced', detached: true,
    });
    const killGroup = () => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ } };
    let outcome: BuildOutcome | undefined;
    const onAbort = () => { if (child.connected) child.send({ type: 'abort' }); };
    opts.signal.addEventListener('abort', onAbort, { once: true });
    const killer = setTimeout(killGroup, opts.killAfterMs);
    child.on('message', (msg: { type: 'phase'; phase: string } | { type: 'outcome'; outcome: BuildOutcome }) => {
      if (msg.type === 'phase') opts.onPhase?.(msg.phase);
      else if (msg.type === 'outcome') outcome = msg.outcome;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      killGroup();
      opts.signal.removeEventListener('abort', onAbort);
      if (outcome) return resolve(outcome);
      opts.log(`build process of ${job.deployment_id} ended without a report (${code ?? signal})`);
      opts.client.complete(job, { status: 'failed', retryable: true, error: 'The build process ended unexpectedly on the platform\'s side; it will be retried' })
        .then(() => resolve('reported'), () => resolve('error'));
    });
    const request: BuildRequest = { type: 'job', job, controlPlaneUrl: opts.controlPlaneUrl, workDir: opts.workDir };
    child.send(request);
  });
}
