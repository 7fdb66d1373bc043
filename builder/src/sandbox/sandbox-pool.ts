/**
 * The compiler the builder uses: pages are compiled and run only in sandbox processes
 * (sandbox/sandbox-process.ts), never in the builder's own process. Big batches are cut into
 * chunks that idle sandboxes take in turn; small batches (an edit) use one sandbox, and after a
 * big batch the others end (`SHRINK_MS`).
 *
 * Limits: a chunk that takes more than its CPU time, runs out of memory or ends its process is
 * compiled again one page per chunk, so one bad page fails alone and its siblings build; a
 * single page that fails that way again is reported as a page failure. The sandbox is replaced,
 * and the builder lives on.
 */
import { appError } from '../errors.ts';
import type { CompiledPage, PageFailure } from '../types.ts';
import { SandboxEnded, startSandbox, type Sandbox, type SandboxEnd } from './sandbox-process.ts';
import { DEFAULT_PAGE_LIMITS, type CompileContext, type CompileInput, type Compiler, type CompilerOptions, type PageLimits } from '../compile/compiler.ts';
import { codeCacheTemplate, warmCodeCache } from './code-cache-warmup.ts';

type Result = CompiledPage | PageFailure;

/**
 * The sandbox answers' checks, with their schemas (zod: ~50 ms of CPU to load), are loaded once
 * the first sandbox is spawned, not before: in a fresh process the first page waits for that
 * sandbox's start, and this lets it begin that much sooner.
 */
let resultsModule: Promise<typeof import('./results.ts')> | undefined;
const results = () => (resultsModule ??= import('./results.ts'));

/** Pages sent to a sandbox at a time: small enough that both sandboxes finish a batch together. */
const CHUNK = 16;
/** Sandboxes idle this long are ended. */
const IDLE_MS = 30_000;
/**
 * After a batch that used several sandboxes, all but one end once the pool has been idle this
 * long: a kept compiler's next edits need one, and each of the others holds hundreds of MB
 * after a large compile. Long enough to bridge the gap between a build's compile batches.
 */
const SHRINK_MS = 2_000;

/** Options of {@link createSandboxCompiler}: `createCompiler`'s, with the pool's sizes settled. */
export interface SandboxCompilerOptions extends Omit<CompilerOptions, 'workers' | 'workerThreshold'> {
  /** Sandboxes for big batches (at least 1). */
  workers: number;
  /** Smallest batch that uses every sandbox; smaller ones use one. */
  threshold: number;
  /** Pages per chunk (default 16). */
  chunk?: number;
  /** Sandboxes idle this long end (default 30 s); `Infinity`: they end with `close()` only. */
  idleMs?: number;
  /** False: sandboxes start without the platform's code cache and none is recorded (default: used). */
  codeCache?: boolean;
}

interface Chunk {
  inputs: CompileInput[];
  ctx: CompileContext;
  resolve(results: Result[]): void;
  reject(err: unknown): void;
}

/** How each failure of a page that ended its sandbox starts; the limits follow. */
const STARTS: Record<SandboxEnd, string> = {
  timeout: 'Page took too long to compile and run',
  memory: 'Page used more memory than a page\'s compile may',
  crashed: 'Page ended its compile process',
};

const MESSAGES: Record<SandboxEnd, (limits: PageLimits) => string> = {
  timeout: (l) => `${STARTS.timeout} (an endless loop, or waiting on something that never comes); the limits are ${l.pageCpuMs / 1000} s of CPU time and ${l.pageWallMs / 1000} s in all`,
  memory: (l) => `${STARTS.memory}; the limit is ${l.heapMb} MB`,
  crashed: () => `${STARTS.crashed} (process.exit, a crash, or tampering with the compiler)`,
};

/**
 * True for the failure of a page that exceeded a limit or ended its sandbox: it depends on the
 * machine's load as much as on the page, so it is never cached.
 */
export function isLimitFailure(failure: PageFailure): boolean {
  return Object.values(STARTS).some((start) => failure.message.startsWith(start));
}

/** A compiler whose pages run in sandbox processes. */
export interface SandboxCompiler extends Compiler {
  /** Starts one sandbox now, so its start-up overlaps other work (cloning, planning). */
  prepare(): void;
  /** CPU time every sandbox of this compiler has used, in ms. */
  cpuMs(): number;
  /** Pages this compiler's sandboxes compiled on the static path. */
  staticPages(): number;
  /** Sandbox processes running now. */
  running(): number;
}

export function createSandboxCompiler(opts: SandboxCompilerOptions): SandboxCompiler {
  const limits: PageLimits = { ...DEFAULT_PAGE_LIMITS, ...opts.limits };
  const chunkSize = opts.chunk ?? CHUNK;
  const sandboxes: Array<{ box: Sandbox; busy: boolean }> = [];
  const waiting: Chunk[] = [];
  let wanted = 1;
  let endedCpu = 0;
  let staticCount = 0;
  let active = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  let shrinkTimer: NodeJS.Timeout | undefined;

  // Sandboxes start from the platform's code cache once there is one (see code-cache-warmup.ts).
  const warmup = opts.codeCache === false ? undefined : warmCodeCache({ osLayers: opts.osLayers, heapMb: limits.heapMb });
  const codeCache = opts.codeCache === false ? undefined : { template: codeCacheTemplate() };
  const start = () => {
    const entry = { box: startSandbox({ themes: opts.themes, staticPath: opts.staticPath, templateBundle: opts.templateBundle, limits: { heapMb: limits.heapMb }, osLayers: opts.osLayers, log: opts.log, codeCache }), busy: false };
    sandboxes.push(entry);
    results().catch(() => undefined); // awaited, and any failure reported, where an answer is checked
    return entry;
  };
  const retire = (entry: { box: Sandbox }) => {
    const i = sandboxes.indexOf(entry as (typeof sandboxes)[number]);
    if (i < 0) return;
    sandboxes.splice(i, 1);
    endedCpu += entry.box.cpuMs();
  };

  const run = (entry: (typeof sandboxes)[number], chunk: Chunk) => {
    entry.busy = true;
    // Several pages get twice one page's CPU time before they are tried one by one.
    const single = chunk.inputs.length === 1;
    const times = single ? 1 : 2;
    const staticBefore = entry.box.staticPages();
    entry.box.compile(chunk.inputs, chunk.ctx, { cpuMs: times * limits.pageCpuMs, wallMs: times * limits.pageWallMs }).then(
      async (raw) => {
        staticCount += entry.box.staticPages() - staticBefore;
        const { checkResults } = await results();
        chunk.resolve(checkResults(chunk.inputs, raw));
      },
      async (err: unknown) => {
        if (entry.box.ended()) retire(entry);
        // A sandbox that never started ran no page: the platform failed, and the build is retried.
        if (err instanceof SandboxEnded && err.atStart) return chunk.reject(appError('sandbox_start', `Compile sandbox could not start (${err.message})`, err));
        const reason: SandboxEnd = err instanceof SandboxEnded ? err.reason : 'crashed';
        if (!single) {
          // Try each page alone: the one that caused this fails, its siblings build.
          const parts = chunk.inputs.map((input) => new Promise<Result[]>((resolve, reject) => waiting.unshift({ inputs: [input], ctx: chunk.ctx, resolve, reject })));
          Promise.all(parts).then((r) => chunk.resolve(r.flat()), chunk.reject);
        } else {
          const { failureOf } = await results();
          chunk.resolve([failureOf(chunk.inputs[0], MESSAGES[reason](limits))]);
        }
      },
    ).catch((err: unknown) => chunk.reject(err)).finally(() => {
      entry.busy = false;
      if (entry.box.ended()) retire(entry);
      pump();
    });
  };

  function pump(): void {
    while (waiting.length > 0) {
      let entry = sandboxes.find((s) => !s.busy && !s.box.ended());
      if (!entry && sandboxes.length < wanted) entry = start();
      if (!entry) return;
      run(entry, waiting.shift()!);
    }
  }

  const stop = async (ending: typeof sandboxes) => {
    await Promise.all(ending.map(async (s) => { await s.box.close(); endedCpu += s.box.cpuMs(); }));
  };
  const stopAll = () => stop(sandboxes.splice(0));
  // Runs only while no batch is compiling (a compile call cancels it): every sandbox is idle.
  const shrink = () => {
    wanted = 1;
    return stop(sandboxes.splice(1));
  };

  return {
    prepare() {
      if (sandboxes.length === 0) start();
    },
    cpuMs: () => endedCpu + sandboxes.reduce((sum, s) => sum + s.box.cpuMs(), 0),
    staticPages: () => staticCount,
    running: () => sandboxes.filter((s) => !s.box.ended()).length,
    async compile(inputs, ctx) {
      clearTimeout(idleTimer);
      clearTimeout(shrinkTimer);
      active++;
      try {
        if (inputs.length >= opts.threshold) wanted = Math.max(1, opts.workers);
        const size = inputs.length >= opts.threshold ? chunkSize : inputs.length || 1;
        const parts: Promise<Result[]>[] = [];
        // Contiguous slices keep pages of one folder (and their shared snippets) together.
        for (let i = 0; i < inputs.length; i += size) {
          parts.push(new Promise<Result[]>((resolve, reject) => waiting.push({ inputs: inputs.slice(i, i + size), ctx, resolve, reject })));
        }
        // Ahead of what waits, in their own order (a chunk already running is not interrupted).
        if (ctx.first) waiting.unshift(...waiting.splice(waiting.length - parts.length, parts.length));
        pump();
        return (await Promise.all(parts)).flat();
      } finally {
        const idleMs = opts.idleMs ?? IDLE_MS;
        if (--active === 0 && Number.isFinite(idleMs)) idleTimer = setTimeout(() => void stopAll(), idleMs).unref();
        if (active === 0 && sandboxes.length > 1) shrinkTimer = setTimeout(() => void shrink(), SHRINK_MS).unref();
      }
    },
    async close() {
      clearTimeout(idleTimer);
      clearTimeout(shrinkTimer);
      await Promise.all([stopAll(), warmup]);
    },
  };
}
