/**
 * A builder worker: claims jobs from the control plane and runs each in a build process
 * (run-build-process.ts: one per project, kept warm for its next job), one at a time. The worker
 * holds the worker secret and never runs customer code; a build process holds its job's token. On SIGTERM (or `stop()`), a job in
 * progress gets `gracefulMs` to finish; after that it is handed back (its lease released) so
 * another worker starts it at once.
 *
 * Claims wait for work on the control plane (`claimWaitMs`): a job queued while the worker is idle
 * is handed to it at once, instead of at its next poll. When the control plane did not wait (an
 * older one, too many claims waiting, or an error) the worker polls every `pollMs` as before.
 * Stopping ends a waiting claim at once.
 */
import { getEventListeners } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { DEFAULT_LIMITS, longestBuildMs } from '../limits/build-limits.ts';
import { ControlPlaneClient, type ClaimResult, type Job } from './control-plane-client.ts';
import { buildProcesses } from './run-build-process.ts';
import { activeResources, useClone, type WorkerResources } from './work-dir.ts';

export interface WorkerOptions {
  /** Control plane origin, e.g. http://127.0.0.1:4000 */
  controlPlaneUrl: string;
  workerSecret: string;
  /** Where build processes keep one clone per project between jobs. */
  workDir: string;
  /** Default `<hostname>-<uuid>`. */
  id?: string;
  /** Idle poll interval when a claim did not wait; default 1000 ms. `wake()` polls at once. */
  pollMs?: number;
  /** How long a claim waits on the control plane for a job (long-poll); 0 polls only; default 20 s, at most 30 s. */
  claimWaitMs?: number;
  /** Time a running job gets to finish on stop; default 60 s. */
  gracefulMs?: number;
  /** Wall time after which a build process is killed; default the build limit plus 2 minutes. */
  killAfterMs?: number;
  /** How long a build process waits for its project's next job; default 60 s. */
  buildIdleMs?: number;
  /** Clone folders kept in `workDir` (least recently built removed first); default 20. */
  maxClones?: number;
  onPhase?(phase: string, job: Job): void;
  log?(message: string): void;
}

export interface Worker {
  id: string;
  /** Polls now instead of at the next interval (a job was just queued). */
  wake(): void;
  stop(): Promise<void>;
  /** Resolves when the loop has ended. */
  done: Promise<void>;
  /** What the worker holds right now (listeners, handles, memory, clones). */
  resources(): WorkerResources;
}

export function startWorker(opts: WorkerOptions): Worker {
  const id = opts.id ?? `${os.hostname()}-${randomUUID().slice(0, 8)}`;
  const client = new ControlPlaneClient(opts.controlPlaneUrl, opts.workerSecret);
  const abort = new AbortController();
  const log = opts.log ?? (() => {});
  const builds = buildProcesses({
    client, controlPlaneUrl: opts.controlPlaneUrl, workDir: opts.workDir, log,
    killAfterMs: opts.killAfterMs ?? longestBuildMs(DEFAULT_LIMITS) + 120_000, idleMs: opts.buildIdleMs,
  });
  let stopping = false;
  // Aborted by stop(): ends a claim waiting on the control plane.
  const stopClaims = new AbortController();
  let wakeUp: (() => void) | undefined;
  const sleep = (ms: number) => new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    wakeUp = () => { clearTimeout(t); resolve(); };
  });

  const done = (async () => {
    while (!stopping) {
      let claim: ClaimResult = { waited: false };
      try {
        claim = await client.claim(id, { waitMs: opts.claimWaitMs ?? 20_000, signal: stopClaims.signal });
      } catch (err) {
        if (!stopping) log(`claim failed: ${(err as Error).message}`);
      }
      const job = claim.job;
      // A claim that waited its whole time claims again at once; one that did not waits a poll interval.
      if (!job) { if (!claim.waited && !stopping) await sleep(opts.pollMs ?? 1000); continue; }
      opts.onPhase?.('claimed', job);
      log(`building ${job.project.slug} (deployment ${job.deployment_id})`);
      const claimed = job;
      try {
        useClone(opts.workDir, job.project.id, opts.maxClones ?? 20);
      } catch (err) {
        log(`could not tidy ${opts.workDir}: ${(err as Error).message}`);
      }
      const outcome = await builds.run(job, abort.signal, (phase) => opts.onPhase?.(phase, claimed));
      opts.onPhase?.(`finished:${outcome}`, job);
    }
    builds.close();
  })();

  return {
    id,
    wake: () => wakeUp?.(),
    async stop() {
      stopping = true;
      stopClaims.abort();
      wakeUp?.();
      const timer = setTimeout(() => abort.abort(), opts.gracefulMs ?? 60_000);
      await done;
      clearTimeout(timer);
    },
    done,
    resources: () => ({
      abortListeners: getEventListeners(abort.signal, 'abort').length,
      active: activeResources(),
      heapUsedBytes: process.memoryUsage().heapUsed,
      rssBytes: process.memoryUsage().rss,
      clones: fs.readdirSync(opts.workDir).length,
    }),
  };
}
