/**
 * The worker's side of build processes (build-process.ts). A build process is started for a
 * project with a scrubbed environment and handed each job over IPC (never in its environment or
 * arguments, which other processes of the user can read). It stays up, idle, for the next job of
 * the same project (`idleMs`), so an edit neither starts Vite nor reads its pages back; a job of
 * another project ends it first: a build process, its compiler and the pages it remembers serve
 * one project. If it ends without reporting (killed, crashed, out of time), the worker reports the
 * build failed with the job's own token, so the deployment is retried.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scrubbedEnv } from '../limits/scrubbed-env.ts';
import { buildProcessArgs, buildProcessEnv } from '../build-process-launch.ts';
import type { ControlPlaneClient, Job } from './control-plane-client.ts';
import type { BuildRequest } from './build-process.ts';

const BUILD_PROCESS = fileURLToPath(new URL('./build-process.ts', import.meta.url));

export type BuildOutcome = 'reported' | 'lease_lost' | 'released' | 'error';

export interface BuildProcessOptions {
  client: ControlPlaneClient;
  controlPlaneUrl: string;
  workDir: string;
  /** Wall time after which a build process is killed mid-job (its own limits stop it well before). */
  killAfterMs: number;
  /** How long an idle build process waits for its project's next job; default 60 s. */
  idleMs?: number;
  log(message: string): void;
}

type FromBuild = { type: 'phase'; phase: string } | { type: 'outcome'; outcome: BuildOutcome };

interface Warm { projectId: string; child: ChildProcess; tmp: string; idle?: NodeJS.Timeout }

/** Runs jobs in build processes, keeping the last one warm for its project. */
export interface BuildProcesses {
  /** Runs `job`; aborting `signal` asks the build process to hand the job back. */
  run(job: Job, signal: AbortSignal, onPhase?: (phase: string) => void): Promise<BuildOutcome>;
  /** Ends the warm build process, if any. */
  close(): void;
}

/** Kills a build process's group: its compile sandboxes too, even one stuck in a loop. */
function killGroup(child: ChildProcess): void {
  try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
}

export function buildProcesses(opts: BuildProcessOptions): BuildProcesses {
  let warm: Warm | undefined;
  const start = (projectId: string): Warm => {
    // The build process's temporary files (its sandboxes' scratch folders, asset builds) go in a
    // folder of its own, removed when it ends, whichever way: a killed build leaves nothing behind.
    // 0711: sandboxes, running as other users, reach their own scratch folder inside, and list nothing.
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'folio-build-'));
    chmodSync(tmp, 0o711);
    // A process group of its own (detached), so that killGroup() reaches the sandboxes.
    const child = spawn(process.execPath, buildProcessArgs(BUILD_PROCESS), {
      env: buildProcessEnv({ ...scrubbedEnv(), TMPDIR: tmp }), stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced', detached: true,
    });
    const entry: Warm = { projectId, child, tmp };
    child.on('exit', () => {
      killGroup(child);
      rmSync(tmp, { recursive: true, force: true });
      if (warm === entry) warm = undefined;
    });
    return entry;
  };
  const end = (entry: Warm | undefined) => {
    if (!entry) return;
    clearTimeout(entry.idle);
    if (warm === entry) warm = undefined;
    killGroup(entry.child);
    // Also here, not only on 'exit': a worker that stops exits before that event arrives.
    rmSync(entry.tmp, { recursive: true, force: true });
  };

  return {
    run(job, signal, onPhase) {
      if (warm && (warm.projectId !== job.project.id || !warm.child.connected)) end(warm);
      const entry = warm ?? start(job.project.id);
      warm = entry;
      clearTimeout(entry.idle);
      const { child } = entry;
      return new Promise((resolve) => {
        let outcome: BuildOutcome | undefined;
        const onAbort = () => { if (child.connected) child.send({ type: 'abort' }); };
        signal.addEventListener('abort', onAbort, { once: true });
        const killer = setTimeout(() => end(entry), opts.killAfterMs);
        const finish = () => {
          clearTimeout(killer);
          signal.removeEventListener('abort', onAbort);
          child.off('message', onMessage);
          child.off('exit', onExit);
        };
        const onMessage = (msg: FromBuild) => {
          if (msg.type === 'phase') { onPhase?.(msg.phase); return; }
          outcome = msg.outcome;
          finish();
          // Kept for the project's next job, ended when none comes.
          if (warm === entry && outcome !== 'error') entry.idle = setTimeout(() => end(entry), opts.idleMs ?? 60_000).unref();
          else end(entry);
          resolve(outcome);
        };
        const onExit = (code: number | null, sig: NodeJS.Signals | null) => {
          finish();
          opts.log(`build process of ${job.deployment_id} ended without a report (${code ?? sig})`);
          opts.client.complete(job, { status: 'failed', retryable: true, error: 'The build process ended unexpectedly on the platform\'s side; it will be retried' })
            .then(() => resolve('reported'), () => resolve('error'));
        };
        child.on('message', onMessage);
        child.on('exit', onExit);
        const request: BuildRequest = { type: 'job', job, controlPlaneUrl: opts.controlPlaneUrl, workDir: opts.workDir };
        child.send(request);
      });
    },
    close: () => end(warm),
  };
}
