/**
 * A compiler that spreads big batches over worker threads, each with its own compiler (one
 * highlighter and one Vite per worker), and compiles small batches in the calling thread.
 * Workers start on the first big batch and live until `close()`. Their `process.env` is empty:
 * customer pages run there and must not see the builder's environment.
 */
import { Worker } from 'node:worker_threads';
import type { CompiledPage, PageFailure } from '../types.ts';
import { appError } from '../errors.ts';
import type { CompileContext, CompileInput, Compiler } from './compiler.ts';
import { createLocalCompiler } from './local-compiler.ts';
import type { CodeThemes } from './highlighter.ts';

type Result = CompiledPage | PageFailure;
type FromWorker =
  | { type: 'ready' }
  | { type: 'read'; id: number; path: string }
  | { type: 'done'; batch: number; results: Result[] }
  | { type: 'error'; batch: number; message: string };

interface PoolWorker {
  worker: Worker;
  ready: Promise<void>;
  run(inputs: CompileInput[], ctx: CompileContext): Promise<Result[]>;
}

// Workers load the TypeScript entry through tsx like the rest of the builder. On Node 20 the
// loader hooks of `--import tsx` do not reach worker threads, so each worker registers tsx
// itself before importing its entry.
const WORKER_BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./compile-worker.ts', import.meta.url).href)}); })
  .catch((err) => { setImmediate(() => { throw err; }); });`;

/**
 * Compiling allocates a great deal of short-lived data (syntax trees, tokens, strings). V8's
 * default young generation (16 MB semi-spaces) promotes much of it and collects often: with
 * 64 MB semi-spaces (young generation = 3 semi-spaces) one thread compiled the same 200 pages in
 * 37.1 instead of 44.9 ms CPU per page (`node --max-semi-space-size=64 … engine-bench.ts 200 runner`).
 */
const YOUNG_GENERATION_MB = 192;

function startWorker(themes: CodeThemes | undefined): PoolWorker {
  const worker = new Worker(WORKER_BOOT, {
    eval: true, env: {}, execArgv: [], workerData: { themes }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  let ctx: CompileContext | undefined;
  let batch = 0;
  const pending = new Map<number, { resolve(r: Result[]): void; reject(e: unknown): void }>();
  let markReady: () => void;
  let failReady: (err: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  const failAll = (err: unknown) => {
    failReady(err);
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('error', (err) => failAll(appError('compile_worker', `Compile worker failed: ${err.message}`, err)));
  worker.on('exit', (code) => failAll(appError('compile_worker', `Compile worker exited with code ${code}`)));
  worker.on('message', (msg: FromWorker) => {
    if (msg.type === 'ready') markReady();
    else if (msg.type === 'read') {
      const reply = (text: string | undefined) => worker.postMessage({ type: 'read-result', id: msg.id, text });
      ctx!.readFile(msg.path).then(reply, () => reply(undefined));
    } else {
      const p = pending.get(msg.batch);
      pending.delete(msg.batch);
      if (msg.type === 'done') p?.resolve(msg.results);
      else p?.reject(appError('compile_worker', `Compile worker failed: ${msg.message}`));
    }
  });
  return {
    worker,
    ready,
    async run(inputs, batchCtx) {
      await ready;
      ctx = batchCtx;
      const id = ++batch;
      return new Promise<Result[]>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ type: 'compile', batch: id, inputs });
      });
    },
  };
}

/** Creates a pool compiler with `workers` threads used for batches of at least `threshold` pages. */
export async function createPoolCompiler(opts: { workers: number; threshold: number; themes?: CodeThemes }): Promise<Compiler> {
  let local: Promise<Compiler> | undefined;
  let workers: PoolWorker[] | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const compileInWorkers = async (inputs: CompileInput[], ctx: CompileContext): Promise<Result[]> => {
    workers ??= Array.from({ length: opts.workers }, () => startWorker(opts.themes));
    const pool = workers;
    // Contiguous slices keep pages of one folder (and their shared snippets) together.
    const size = Math.ceil(inputs.length / pool.length);
    const parts = await Promise.all(pool.map((w, i) => {
      const slice = inputs.slice(i * size, (i + 1) * size);
      return slice.length === 0 ? Promise.resolve([]) : w.run(slice, ctx);
    }));
    return parts.flat();
  };
  return {
    compile(inputs, ctx) {
      const run = async (): Promise<Result[]> => {
        if (opts.workers > 0 && inputs.length >= opts.threshold) return compileInWorkers(inputs, ctx);
        local ??= createLocalCompiler({ themes: opts.themes });
        return (await local).compile(inputs, ctx);
      };
      // One batch at a time per worker keeps each worker's read context unambiguous.
      const next = queue.then(run, run);
      queue = next.catch(() => undefined);
      return next;
    },
    async close() {
      await Promise.all((workers ?? []).map(async (w) => {
        w.worker.removeAllListeners('exit');
        w.worker.removeAllListeners('error');
        // Nothing in a worker outlives it (Vite, highlighter), so ending the thread is enough.
        await w.worker.terminate();
      }));
      if (local) await (await local).close();
    },
  };
}
