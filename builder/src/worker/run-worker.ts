/**
 * A builder worker: claims jobs from the control plane and runs them one at a time. On SIGTERM
 * (or `stop()`), a job in progress gets `gracefulMs` to finish; after that it is handed back
 * (its lease released) so another worker starts it at once.
 */
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Compiler } from '../compile/index.ts';
import type { PageMemory } from '../page-bodies.ts';
import { prefixStore, type ObjectStore } from '../store/object-store.ts';
import { ControlPlaneClient, type Job } from './control-plane-client.ts';
import { runJob } from './run-job.ts';

export interface WorkerOptions {
  /** Control plane origin, e.g. http://127.0.0.1:4000 */
  controlPlaneUrl: string;
  workerSecret: string;
  store: ObjectStore;
  workDir: string;
  /** Default `<hostname>-<uuid>`. */
  id?: string;
  /** Idle poll interval; default 1000 ms. `wake()` polls at once. */
  pollMs?: number;
  /** Time a running job gets to finish on stop; default 60 s. */
  gracefulMs?: number;
  compiler?: Compiler;
  /** Compiled pages kept across jobs (see `BuildOptions.pageMemory`). */
  pageMemory?: PageMemory;
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
}

export function startWorker(opts: WorkerOptions): Worker {
  const id = opts.id ?? `${os.hostname()}-${randomUUID().slice(0, 8)}`;
  const client = new ControlPlaneClient(opts.controlPlaneUrl, opts.workerSecret);
  const abort = new AbortController();
  const log = opts.log ?? (() => {});
  let stopping = false;
  let wakeUp: (() => void) | undefined;
  const sleep = (ms: number) => new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    wakeUp = () => { clearTimeout(t); resolve(); };
  });

  const done = (async () => {
    while (!stopping) {
      let job: Job | undefined;
      try {
        job = await client.claim(id);
      } catch (err) {
        log(`claim failed: ${(err as Error).message}`);
      }
      if (!job) { await sleep(opts.pollMs ?? 1000); continue; }
      opts.onPhase?.('claimed', job);
      log(`building ${job.project.slug} (deployment ${job.deployment_id})`);
      const claimed = job;
      const outcome = await runJob(job, {
        client, compiler: opts.compiler, pageMemory: opts.pageMemory, signal: abort.signal,
        store: prefixStore(opts.store, job.site.prefix),
        // One clone folder per project, kept between jobs so the next build fetches less.
        source: { kind: 'remote', url: job.source.url, branch: job.source.branch, token: job.source.token ?? undefined, workDir: path.join(opts.workDir, job.project.id) },
        onPhase: (phase) => opts.onPhase?.(phase, claimed),
      })
        .catch((err) => { log(`job ${job!.deployment_id} could not be reported: ${(err as Error).message}`); return 'error'; });
      opts.onPhase?.(`finished:${outcome}`, job);
    }
  })();

  return {
    id,
    wake: () => wakeUp?.(),
    async stop() {
      stopping = true;
      wakeUp?.();
      const timer = setTimeout(() => abort.abort(), opts.gracefulMs ?? 60_000);
      await done;
      clearTimeout(timer);
    },
    done,
  };
}
