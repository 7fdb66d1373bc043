/**
 * One compile sandbox, seen from the builder: a child process started with `sandboxCommand`, an
 * empty environment and a scratch folder of its own, watched for CPU time and memory while it
 * compiles a chunk of pages. A sandbox that exceeds a limit is killed and says why; the pool
 * decides what that means for the pages (see sandbox-pool.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CompileContext, CompileInput } from '../compile/compiler.ts';
import type { CodeThemes } from '../compile/highlighter.ts';
import { appError } from '../errors.ts';
import { readProcStats } from './proc-stats.ts';
import { osIsolation, sandboxCommand, sandboxUid } from './runtime.ts';
import { recordCodeCache, saveCodeCache, seedCodeCache } from './code-cache.ts';
import { phaseDurations, type StartPhase } from './start-phases.ts';
import { ALLOCATOR_ENV } from '../allocator-env.ts';
import { templateBundle } from '../compile/template-bundle.ts';

/** Why a sandbox was ended while it worked. */
export type SandboxEnd = 'timeout' | 'memory' | 'crashed';

/** Thrown for a chunk whose sandbox ended before answering. */
export class SandboxEnded extends Error {
  readonly reason: SandboxEnd;
  /** True when the sandbox ended before its compiler was ready: no page ran yet, the platform failed. */
  readonly atStart: boolean;
  constructor(reason: SandboxEnd, detail: string, atStart = false) {
    super(`compile sandbox ended (${reason}${atStart ? ', while starting' : ''}): ${detail}`);
    this.name = 'SandboxEnded';
    this.reason = reason;
    this.atStart = atStart;
  }
}

/** Limits of one sandbox. */
export interface SandboxLimits {
  /** V8 heap limit, in MB; the process is also killed when its resident memory passes this plus 512 MB. */
  heapMb: number;
}

export interface SandboxOptions {
  themes?: CodeThemes;
  /** False: no page takes the static path (see `CompilerOptions.staticPath`). */
  staticPath?: boolean;
  /** False: the template loads through Vite (see `CompilerOptions.templateBundle`). */
  templateBundle?: boolean;
  limits: SandboxLimits;
  /** Use the network namespace and own user where this process can (default true). */
  osLayers?: boolean;
  /** Platform-side log (stderr of a sandbox that crashed); never shown to customers. */
  log?(message: string): void;
  /**
   * V8 code of the platform's modules (code-cache.ts): the template folder a sandbox starts with
   * a copy of, or, with `record`, the one this sandbox's cache becomes when it ends normally (only
   * for a sandbox that compiles the platform's own page, never a customer's).
   */
  codeCache?: { template: string; record?: boolean };
}

export interface Sandbox {
  readonly pid: number | undefined;
  /** Resolves once the compiler inside is ready. */
  ready: Promise<void>;
  /**
   * Compiles one chunk within `budget` (CPU time, and wall time for a page that waits on nothing);
   * rejects with `SandboxEnded` when the sandbox ends meanwhile. The answer is the sandbox's,
   * unchecked (see results.ts).
   */
  compile(inputs: CompileInput[], ctx: CompileContext, budget: { cpuMs: number; wallMs: number }): Promise<unknown>;
  /** CPU time the sandbox has used so far, in ms (as last sampled). */
  cpuMs(): number;
  /** Pages the sandbox says took the static path so far (a statistic: never trusted for anything else). */
  staticPages(): number;
  /** Ends the sandbox; `graceful` lets it exit on its own first (a recording sandbox writes its cache then). */
  close(graceful?: boolean): Promise<void>;
  /** True once the process has ended. */
  ended(): boolean;
  /**
   * Where the sandbox's start went, phase by phase (Node, modules, compiler, first chunk), as it
   * reported them; empty until it is ready. For measurements only: the first chunk's figures come
   * from a process that has run pages, so nothing depends on them.
   */
  startPhases(): StartPhase[];
}

const ENTRY = fileURLToPath(new URL('./entry.ts', import.meta.url));
const WATCH_MS = 200;
/** Time a sandbox closed gracefully has to exit before it is killed. */
const GRACEFUL_MS = 10_000;
/** Time the compiler inside may take to start (Vite, the highlighter), on a loaded machine. */
const START_MS = 120_000;

type Outbound =
  | { type: 'ready'; phases?: unknown }
  | { type: 'read'; batch: number; id: number; path: string }
  | { type: 'done'; batch: number; results: unknown; staticPages?: unknown; phases?: unknown }
  | { type: 'error'; batch: number; message: string };

function scratchFolder(uid: number | undefined): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'folio-sandbox-'));
  if (uid !== undefined) chownSync(dir, uid, uid);
  chmodSync(dir, 0o700);
  return dir;
}

/** Starts a sandbox process; it compiles chunks one at a time. */
export function startSandbox(opts: SandboxOptions): Sandbox {
  const layers = opts.osLayers !== false ? osIsolation() : {};
  const uid = layers.setpriv ? sandboxUid() : undefined;
  const scratch = scratchFolder(uid);
  // The IPC channel is the fourth stdio entry; Node finds it through these two variables.
  const runAs = uid ?? process.getuid?.() ?? 0;
  const cache = opts.codeCache;
  const cacheEnv = !cache ? {} : cache.record ? recordCodeCache(scratch, runAs) : seedCodeCache(cache.template, scratch, runAs);
  const env = { TMPDIR: scratch, NODE_CHANNEL_FD: '3', NODE_CHANNEL_SERIALIZATION_MODE: 'advanced', ...ALLOCATOR_ENV, ...cacheEnv };
  const { file, args } = sandboxCommand({ scratch, entry: ENTRY, heapMb: opts.limits.heapMb, uid, netns: Boolean(layers.unshare), env });
  const child: ChildProcess = spawn(file, args, { cwd: scratch, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], serialization: 'advanced' });
  let stderr = '';
  child.stdout!.resume();
  child.stderr!.on('data', (c: Buffer) => { stderr = (stderr + c.toString('utf8')).slice(-4096); });

  let exited = false;
  let isReady = false;
  let killedFor: SandboxEnd | undefined;
  let cpu = 0;
  let current: { id: number; ctx: CompileContext; resolve(r: unknown): void; reject(e: unknown): void; startCpu: number; startWall: number; budget: { cpuMs: number; wallMs: number }; size: number } | undefined;
  let staticCount = 0;
  let batch = 0;
  let phases: StartPhase[] = [];
  let readyResolve!: () => void;
  let readyReject!: (e: unknown) => void;
  const ready = new Promise<void>((res, rej) => { readyResolve = res; readyReject = rej; });
  ready.catch(() => undefined);

  const kill = (reason: SandboxEnd) => {
    if (exited || killedFor) return;
    killedFor = reason;
    child.kill('SIGKILL');
  };
  const startTimer = setTimeout(() => kill('timeout'), START_MS);
  const watch = setInterval(async () => {
    if (!child.pid) return;
    const stats = await readProcStats(child.pid);
    if (!stats) return;
    cpu = stats.cpuMs;
    if (stats.rssBytes > (opts.limits.heapMb + 512) * 1024 * 1024) kill('memory');
    else if (current && cpu - current.startCpu > current.budget.cpuMs) kill('timeout');
    // Waiting on nothing (a promise that never settles) uses no CPU: a wall-time bound too.
    else if (current && Date.now() - current.startWall > current.budget.wallMs) kill('timeout');
  }, WATCH_MS);

  child.on('message', (msg: Outbound) => {
    if (!msg || typeof msg !== 'object') return;
    if (msg.type === 'ready') {
      clearTimeout(startTimer);
      isReady = true;
      phases = phaseDurations(msg.phases);
      readyResolve();
    } else if (msg.type === 'read' && current && msg.batch === current.id && typeof msg.path === 'string' && typeof msg.id === 'number') {
      const reply = (text: string | undefined) => { if (child.connected) child.send({ type: 'read-result', id: msg.id, text }); };
      current.ctx.readFile(msg.path).then(reply, () => reply(undefined));
    } else if ((msg.type === 'done' || msg.type === 'error') && current && msg.batch === current.id) {
      const chunk = current;
      current = undefined;
      // Only the first chunk's answer carries phases; anything later is ignored.
      if (msg.type === 'done' && chunk.id === 1 && msg.phases !== undefined) phases = phaseDurations(msg.phases);
      if (msg.type === 'done') {
        const count = msg.staticPages;
        if (typeof count === 'number' && Number.isInteger(count) && count > 0) staticCount += Math.min(count, chunk.size);
        chunk.resolve(msg.results);
      }
      else chunk.reject(appError('compile_sandbox', `Compile sandbox failed: ${String(msg.message).slice(0, 500)}`));
    }
  });
  const exitedPromise = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = true;
      clearInterval(watch);
      clearTimeout(startTimer);
      if (cache?.record && code === 0 && isReady && !killedFor) saveCodeCache(scratch, cache.template);
      rmSync(scratch, { recursive: true, force: true });
      const memory = /heap out of memory|Reached heap limit|Allocation failed/i.test(stderr);
      const reason: SandboxEnd = killedFor ?? (memory ? 'memory' : 'crashed');
      if (isReady && reason === 'crashed' && stderr.trim()) opts.log?.(`compile sandbox ${child.pid} ended (${code ?? signal}): ${stderr.trim().split('\n').slice(-5).join(' | ')}`);
      if (!isReady) opts.log?.(`compile sandbox ${child.pid} could not start (${code ?? signal}): ${stderr.trim().split('\n').slice(-5).join(' | ')}`);
      const err = new SandboxEnded(reason, `exit ${code ?? signal}`, !isReady);
      readyReject(err);
      current?.reject(err);
      current = undefined;
      resolve();
    });
  });
  child.on('error', (err) => {
    readyReject(appError('compile_sandbox', `Compile sandbox could not start: ${err.message}`, err));
  });
  // The template as a plain module, so the sandbox starts without Vite (compile/template-bundle.ts).
  child.send({ type: 'init', themes: opts.themes, staticPath: opts.staticPath, template: opts.templateBundle === false ? undefined : templateBundle() });

  return {
    pid: child.pid,
    ready,
    ended: () => exited,
    cpuMs: () => cpu,
    staticPages: () => staticCount,
    startPhases: () => phases.map((p) => ({ ...p })),
    async compile(inputs, ctx, budget) {
      await ready;
      if (exited || !child.connected) throw new SandboxEnded(killedFor ?? 'crashed', 'ended before the chunk');
      const id = ++batch;
      const startCpu = (child.pid && (await readProcStats(child.pid))?.cpuMs) || cpu;
      return new Promise<unknown>((resolve, reject) => {
        current = { id, ctx, resolve, reject, startCpu, startWall: Date.now(), budget, size: inputs.length };
        child.send({ type: 'compile', batch: id, inputs });
      });
    },
    async close(graceful = false) {
      if (!exited) {
        child.disconnect?.();
        // The sandbox exits when its channel closes; one that does not is killed.
        if (!graceful) child.kill('SIGKILL');
        const kill = graceful ? setTimeout(() => child.kill('SIGKILL'), GRACEFUL_MS) : undefined;
        await exitedPromise;
        clearTimeout(kill);
      }
      await exitedPromise;
    },
  };
}
