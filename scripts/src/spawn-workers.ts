/**
 * Runs builder workers as child processes of `npm start` and `npm run demo`, with only the
 * variables a worker needs, and supervises them: a worker that ends while the platform runs
 * (crashed, killed by a signal, or exited on its own) is logged with its exit code or signal and
 * started again after an exponential backoff (1 s, 2 s, 4 s … up to 30 s; back to 1 s once a
 * worker has lived a minute), so `BUILDER_WORKERS=1` never leaves the queue without a builder.
 * `stop()` is correct whatever state each child is in: already gone (by a signal or on its
 * own), waiting to be restarted, working, or stuck (SIGTERM, then SIGKILL after `stopTimeoutMs`).
 * Customer MDX never runs in the control plane's process, nor in the worker's: each job builds in
 * its own process, and pages compile in sandboxes below it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const WORKER_MAIN = fileURLToPath(new URL('../../builder/src/worker/main.ts', import.meta.url));
/**
 * Workers run from a bundle of their sources (run-bundled.mjs), as `build-site` does, not through
 * tsx: a worker's build processes start the way it did, so through tsx each would carry tsx's
 * loader and its memory (figures: docs/benchmarks.md, "Commands").
 */
const RUN_BUNDLED = fileURLToPath(new URL('../bin/run-bundled.mjs', import.meta.url));

/** When a worker that died starts again. */
export interface Backoff {
  /** First delay; default 1000 ms. Doubles per consecutive death. */
  initialMs?: number;
  /** Upper bound of the delay; default 30 s. */
  maxMs?: number;
  /** A worker that lived this long starts the count afresh; default 60 s. */
  resetAfterMs?: number;
}

export interface SpawnWorkersOptions {
  controlPlaneUrl: string;
  workerSecret: string;
  /** Discard the workers' output (the demo prints only its own lines). */
  quiet?: boolean;
  /** Each line a worker prints, with its slot; default: written to this process's stderr/stdout as is. */
  onOutput?(slot: number, line: string): void;
  /** Supervision messages (deaths, restarts, escalations); default `console.error`. */
  log?(message: string): void;
  /** More variables for the workers (e.g. `POLL_MS`, `GRACEFUL_MS`, `BUILD_LEASE_MS` in tests). */
  extraEnv?: Record<string, string>;
  backoff?: Backoff;
  /** How long `stop()` waits after SIGTERM before SIGKILL; default 90 s (the worker's 60 s grace plus its hand-back). */
  stopTimeoutMs?: number;
}

/** One supervised worker slot. */
export interface WorkerSlot {
  slot: number;
  /** The running child, or undefined while the slot waits to restart one. */
  child: ChildProcess | undefined;
  /** How many times this slot's worker was started again. */
  restarts: number;
}

export interface Workers {
  slots: WorkerSlot[];
  /** Resolves with the slot's next child once it is running (after a death, once restarted). */
  nextStart(slot: number): Promise<ChildProcess>;
  stop(): Promise<void>;
}

/** Why a child ended, as operators read it. */
export function exitReason(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by ${signal}` : `exited with code ${code}`;
}

/** True while a child has not ended (a child killed by a signal has `exitCode === null` but `signalCode` set). */
export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

export function spawnWorkers(count: number, opts: SpawnWorkersOptions): Workers {
  const log = opts.log ?? ((m: string) => console.error(m));
  const initialMs = opts.backoff?.initialMs ?? 1000;
  const maxMs = opts.backoff?.maxMs ?? 30_000;
  const resetAfterMs = opts.backoff?.resetAfterMs ?? 60_000;
  let stopping = false;

  interface State extends WorkerSlot { timer?: NodeJS.Timeout; failures: number; exited?: Promise<void>; waiters: ((c: ChildProcess) => void)[] }
  const slots: State[] = Array.from({ length: count }, (_, slot) => ({ slot, child: undefined, restarts: 0, failures: 0, waiters: [] }));
  // One work folder per slot, kept across restarts (a restarted worker finds its clones) and
  // removed on stop. The worker creates it private.
  const workDirOf = (slot: number) => opts.extraEnv?.WORK_DIR ?? path.join(os.tmpdir(), `folio-worker-${process.pid}-${slot}`);

  const start = (s: State) => {
    s.timer = undefined;
    // No storage or database settings: build processes publish through the control plane.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH, HOME: process.env.HOME,
      CONTROL_PLANE_URL: opts.controlPlaneUrl, WORKER_SECRET: opts.workerSecret, WORK_DIR: workDirOf(s.slot), ...opts.extraEnv,
    };
    const piped = Boolean(opts.onOutput);
    const child = spawn(process.execPath, [RUN_BUNDLED, '--packages=external', WORKER_MAIN], {
      env, stdio: ['ignore', opts.quiet ? 'ignore' : piped ? 'pipe' : 'inherit', opts.quiet ? 'ignore' : piped ? 'pipe' : 'inherit'],
    });
    if (piped && !opts.quiet) {
      for (const stream of [child.stdout!, child.stderr!]) createInterface({ input: stream }).on('line', (line) => opts.onOutput!(s.slot, line));
    }
    const startedAt = Date.now();
    s.child = child;
    // Resolves on 'exit' whichever way the child ends, so stop() never waits for an event that already fired.
    s.exited = new Promise((resolve) => {
      child.once('error', (err) => { log(`builder worker ${s.slot} could not start: ${err.message}`); });
      child.once('exit', (code, signal) => {
        if (s.child === child) s.child = undefined;
        resolve();
        if (stopping) return;
        s.failures = Date.now() - startedAt >= resetAfterMs ? 1 : s.failures + 1;
        const delay = Math.min(maxMs, initialMs * 2 ** (s.failures - 1));
        log(`builder worker ${s.slot} (pid ${child.pid}) ${exitReason(code, signal)}; starting it again in ${delay} ms`);
        s.timer = setTimeout(() => { s.restarts++; start(s); }, delay);
      });
    });
    for (const w of s.waiters.splice(0)) w(child);
  };
  for (const s of slots) start(s);

  const stopOne = async (s: State) => {
    clearTimeout(s.timer);
    s.timer = undefined;
    const child = s.child;
    if (!child || !isRunning(child)) return;
    child.kill('SIGTERM');
    const timeoutMs = opts.stopTimeoutMs ?? 90_000;
    let timer: NodeJS.Timeout | undefined;
    const forced = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), timeoutMs); });
    const how = await Promise.race([s.exited!.then(() => 'exited' as const), forced]);
    clearTimeout(timer);
    if (how === 'timeout') {
      log(`builder worker ${s.slot} (pid ${child.pid}) did not stop within ${timeoutMs} ms of SIGTERM; killing it`);
      child.kill('SIGKILL');
      await s.exited;
    }
  };

  return {
    slots,
    nextStart(slot) {
      const s = slots[slot];
      if (s.child && isRunning(s.child)) return Promise.resolve(s.child);
      return new Promise((resolve) => s.waiters.push(resolve));
    },
    async stop() {
      stopping = true;
      await Promise.all(slots.map(stopOne));
      if (!opts.extraEnv?.WORK_DIR) for (const s of slots) fs.rmSync(workDirOf(s.slot), { recursive: true, force: true });
    },
  };
}
