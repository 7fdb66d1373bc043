/**
 * A compiler that spreads big batches over worker threads, each with its own compiler (one
 * highlighter and one Vite per worker), and compiles small batches in the calling thread.
 * Workers start on the first big batch and live until `close()`. Their `process.env` is empty:
 * customer pages run there and must not see the builder's environment.
 */
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { CompiledPage, PageFailure } from '../types.ts';
import { appError } from '../errors.ts';
import type { CompileContext, CompileInput, Compiler } from './compiler.ts';
import { createLocalCompiler } from './local-compiler.ts';
import type { CodeThemes } from './highlighter.ts';

type Result = CompiledPage | PageFailure;
type FromWorker =
  | { type: 'ready' }
  | { type: 'read'; batch: number; id: number; path: string }
  | { type: 'done'; batch: number; results: Result[] }
  | { type: 'error'; batch: number; message: string };

/** Pages sent to a worker at a time: small enough that both workers finish a batch together. */
const CHUNK = 16;

/** Worker threads idle this long are ended (default of `idleMs`). */
const IDLE_MS = 30_000;

/** A slice of a batch waiting for a worker. */
interface Chunk {
  inputs: CompileInput[];
  ctx: CompileContext;
  resolve(results: Result[]): void;
  reject(err: unknown): void;
}

interface PoolWorker {
  worker: Worker;
  /** True once the worker has started and while it has no chunk. */
  idle: boolean;
  send(chunk: Chunk): void;
  /** Fails the worker's chunks in progress with `err` and ends the thread. */
  abandon(err: unknown): void;
}

// Workers load the TypeScript entry through tsx like the rest of the builder. On Node 20 the
// loader hooks of `--import tsx` do not reach worker threads, so each worker registers tsx
// itself before importing its entry.
const WORKER_BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./compile-worker.ts', import.meta.url).href)}); })
  .catch((err) => { setImmediate(() => { throw err; }); });`;

/**
 * V8 grows a heap by a dynamic factor (up to 4x) after each full collection. Compile threads
 * allocate fast and keep little, so their heaps grew far past what they hold: a 2,000-page
 * build peaked at 1,149 MB RSS. Growing by 2x at most peaked at 776-866 MB in the same build,
 * taking 40-43 s instead of 43 s (no cost the shared machine could show). V8 flags are
 * per process: this holds for the builder's main thread too. It is read at each collection, so
 * setting it before the first worker starts is enough.
 */
const HEAP_GROWING_PERCENT = 100;

/** Starts a worker; `pull` is called whenever it can take a chunk. */
function startWorker(themes: CodeThemes | undefined, pull: () => void, fail: (err: unknown) => void): PoolWorker {
  // V8's default young generation: 128 MB semi-spaces ran one thread 5-15% faster alone, but in
  // the pool they showed no gain and cost ~60 MB of RSS per worker (2,000-page build, 2 cores).
  const worker = new Worker(WORKER_BOOT, { eval: true, env: {}, execArgv: [], workerData: { themes } });
  let batch = 0;
  const pending = new Map<number, Chunk>();
  worker.on('error', (err) => fail(appError('compile_worker', `Compile worker failed: ${err.message}`, err)));
  worker.on('exit', (code) => fail(appError('compile_worker', `Compile worker exited with code ${code}`)));
  worker.on('message', (msg: FromWorker) => {
    if (msg.type === 'ready') {
      self.idle = true;
      pull();
    } else if (msg.type === 'read') {
      const reply = (text: string | undefined) => worker.postMessage({ type: 'read-result', id: msg.id, text });
      const chunk = pending.get(msg.batch);
      if (!chunk) reply(undefined);
      else chunk.ctx.readFile(msg.path).then(reply, () => reply(undefined));
    } else {
      const chunk = pending.get(msg.batch);
      pending.delete(msg.batch);
      self.idle = true;
      if (msg.type === 'done') chunk?.resolve(msg.results);
      else chunk?.reject(appError('compile_worker', `Compile worker failed: ${msg.message}`));
      pull();
    }
  });
  const self: PoolWorker = {
    worker,
    idle: false,
    send(chunk) {
      self.idle = false;
      const id = ++batch;
      pending.set(id, chunk);
      worker.postMessage({ type: 'compile', batch: id, inputs: chunk.inputs });
    },
    abandon(err) {
      self.idle = false;
      worker.removeAllListeners();
      for (const chunk of pending.values()) chunk.reject(err);
      pending.clear();
      // Nothing in a worker outlives it (Vite, highlighter), so ending the thread is enough.
      void worker.terminate();
    },
  };
  return self;
}

/**
 * Creates a pool compiler with `workers` threads used for batches of at least `threshold` pages.
 * Big batches are cut into chunks of `chunk` (default {@link CHUNK}) pages that idle workers take in turn, so a
 * slow page never leaves the other worker waiting at the end of a batch, and batches queued
 * back to back keep both workers busy.
 */
export async function createPoolCompiler(opts: { workers: number; threshold: number; themes?: CodeThemes; chunk?: number; idleMs?: number }): Promise<Compiler> {
  const chunkSize = opts.chunk ?? CHUNK;
  let local: Promise<Compiler> | undefined;
  let workers: PoolWorker[] | undefined;
  const waiting: Chunk[] = [];
  const pull = () => {
    for (const w of workers ?? []) {
      if (!w.idle) continue;
      const chunk = waiting.shift();
      if (!chunk) return;
      w.send(chunk);
    }
  };
  // A worker that dies (a page ended its thread, memory ran out) fails the work in progress and
  // queued: the build fails and is retried. The pool's threads are ended, and the next batch
  // starts new ones, so a long-lived builder keeps working.
  const fail = (err: unknown) => {
    const dead = workers ?? [];
    workers = undefined;
    for (const w of dead) w.abandon(err);
    for (const chunk of waiting.splice(0)) chunk.reject(err);
  };
  // A long-lived builder keeps its compiler between builds; threads idle for IDLE_MS are ended
  // (each holds a Vite instance, a highlighter and their heaps) and started again when needed.
  let active = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  const stopWorkers = async () => {
    const stopping = workers ?? [];
    workers = undefined;
    await Promise.all(stopping.map(async (w) => {
      w.worker.removeAllListeners();
      await w.worker.terminate();
    }));
  };
  const compileInWorkers = async (inputs: CompileInput[], ctx: CompileContext): Promise<Result[]> => {
    clearTimeout(idleTimer);
    active++;
    try {
      return await runInWorkers(inputs, ctx);
    } finally {
      if (--active === 0) idleTimer = setTimeout(() => void stopWorkers(), opts.idleMs ?? IDLE_MS).unref();
    }
  };
  const runInWorkers = async (inputs: CompileInput[], ctx: CompileContext): Promise<Result[]> => {
    if (!workers) v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    workers ??= Array.from({ length: opts.workers }, () => startWorker(opts.themes, pull, fail));
    const parts: Promise<Result[]>[] = [];
    // Contiguous slices keep pages of one folder (and their shared snippets) together.
    for (let i = 0; i < inputs.length; i += chunkSize) {
      parts.push(new Promise<Result[]>((resolve, reject) => waiting.push({ inputs: inputs.slice(i, i + chunkSize), ctx, resolve, reject })));
    }
    pull();
    return (await Promise.all(parts)).flat();
  };
  return {
    async compile(inputs, ctx) {
      if (opts.workers > 0 && inputs.length >= opts.threshold) return compileInWorkers(inputs, ctx);
      local ??= createLocalCompiler({ themes: opts.themes });
      return (await local).compile(inputs, ctx);
    },
    async close() {
      clearTimeout(idleTimer);
      await stopWorkers();
      if (local) await (await local).close();
    },
  };
}
