/**
 * The builder's MDX compile step: pages in, `CompiledPage`s (body HTML, Markdown export, search
 * text, TOC, updates, frontmatter) or positioned `PageFailure`s out.
 *
 * Pages go through Vite's plugin pipeline with @mdx-js/rollup and run in Vite's module runner
 * (see runner-engine.ts for the measured comparison with a Vite SSR build), are rendered with
 * Preact and the site template's components, and code fences are highlighted by one shared
 * shiki highlighter per thread.
 *
 * Customer MDX is code and runs in the builder's process. Imports are limited to repository
 * files and dynamic `import()` is refused, but a page can still reach globals such as
 * `process`; the builder therefore runs pages without secrets in its environment (worker
 * threads get an empty `process.env`; the pipeline runs the builder itself with a scrubbed
 * environment).
 */
import type { Compiler, CompilerOptions } from './compiler.ts';
import { availableParallelism } from 'node:os';
import { createLocalCompiler } from './local-compiler.ts';
import { createPoolCompiler } from './worker-pool.ts';

export type { CompileContext, CompileInput, Compiler, CompilerOptions } from './compiler.ts';
export { isPageFailure } from './compiler.ts';
export { urlPathFor } from './url-path.ts';
export { DEFAULT_THEMES, type CodeThemes } from './highlighter.ts';

/** Part of the per-page cache key: bump whenever compiled output changes for the same source. */
export const COMPILER_VERSION = 'compile-1';

/** Creates a compiler with one shared highlighter (per thread). Close it when done. */
export async function createCompiler(opts: CompilerOptions = {}): Promise<Compiler> {
  const workers = opts.workers ?? (availableParallelism() >= 2 ? 2 : 0);
  if (workers === 0) return createLocalCompiler({ themes: opts.themes });
  return createPoolCompiler({ workers, threshold: opts.workerThreshold ?? 40, themes: opts.themes });
}
