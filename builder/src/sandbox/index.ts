/**
 * The compile step as the rest of the builder uses it: a compiler whose pages run in sandbox
 * processes (../compile/ is what runs inside them; this folder is the process boundary, the
 * pool and the code cache).
 */
import type { CompilerOptions } from '../compile/compiler.ts';
import { poolSize } from './pool-size.ts';
import { createSandboxCompiler, type SandboxCompiler } from './sandbox-pool.ts';

export type { SandboxCompiler } from './sandbox-pool.ts';
/** Creates a compiler whose pages run in sandbox processes. Close it when done. */
export async function createCompiler(opts: CompilerOptions = {}): Promise<SandboxCompiler> {
  const workers = opts.workers ?? poolSize();
  return createSandboxCompiler({
    workers: Math.max(1, workers), threshold: opts.workerThreshold ?? 40, themes: opts.themes,
    limits: opts.limits, staticPath: opts.staticPath, templateBundle: opts.templateBundle, osLayers: opts.osLayers, log: opts.log, idleMs: opts.idleMs, codeCache: opts.codeCache,
  });
}
