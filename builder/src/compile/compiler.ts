/**
 * The compile step's interface: a batch of MDX/Markdown pages in, one `CompiledPage` or
 * `PageFailure` out per page, in input order.
 */
import type { CompiledPage, PageFailure } from '../types.ts';
import type { CodeThemes } from './highlighter.ts';

/** Limits of the pages a compiler runs. */
export interface PageLimits {
  /** CPU time one page may take to compile and run, in ms (a chunk of several gets twice that). Default 10 s. */
  pageCpuMs: number;
  /** Wall time, for a page that waits on something that never comes (a chunk gets twice that). Default 60 s. */
  pageWallMs: number;
  /** V8 heap of a sandbox, in MB. Default 1024. */
  heapMb: number;
}

export const DEFAULT_PAGE_LIMITS: PageLimits = { pageCpuMs: 10_000, pageWallMs: 60_000, heapMb: 1024 };

/** One page to compile. */
export interface CompileInput {
  /** Repository path, e.g. `docs/guides/install.mdx`. `.md` files are plain Markdown (no JSX). */
  sourcePath: string;
  source: string;
  /** The configuration's content root, e.g. `docs/`. */
  contentRoot: string;
}

/** What a compile may read besides its inputs. */
export interface CompileContext {
  /** Reads another repository file for MDX imports (snippets); undefined when missing. Paths are repo-relative. */
  readFile(repoPath: string): Promise<string | undefined>;
  /**
   * Compile these ahead of the batches already waiting for a sandbox (the page a preview's
   * visitor asked for before its first build is done); default: after them.
   */
  first?: boolean;
}

/** Compiles batches of pages. */
export interface Compiler {
  /** Compiles a batch of pages; one page's failure never fails its siblings. Results follow input order. */
  compile(inputs: CompileInput[], ctx: CompileContext): Promise<Array<CompiledPage | PageFailure>>;
  /** Releases the highlighter, Vite and any workers. */
  close(): Promise<void>;
  /** CPU time the compiler's sandbox processes have used so far, in ms (none: not counted). */
  cpuMs?(): number;
  /** Pages compiled so far on the static path (static-page.ts), without JavaScript (none: not counted). */
  staticPages?(): number;
}

/** Options of `createCompiler`. */
export interface CompilerOptions {
  /** Code themes for light and dark mode (default GitHub light/dark). */
  themes?: CodeThemes;
  /**
   * Sandbox processes for big batches (default: one per core, at most 2, as many as the machine's
   * or the container's memory holds: sandbox/pool-size.ts). Batches
   * under `workerThreshold` pages use one.
   */
  workers?: number;
  /** Smallest batch worth spreading over every sandbox (default 40 pages). */
  workerThreshold?: number;
  /** CPU time and memory a page may use (see `DEFAULT_PAGE_LIMITS`). */
  limits?: Partial<PageLimits>;
  /** Add the network namespace and own user where the builder can (default true). */
  osLayers?: boolean;
  /** How long idle sandboxes are kept before they stop (default 30 s; the dev server keeps them). */
  idleMs?: number;
  /** False: sandboxes start without the platform's code cache (sandbox/code-cache.ts) and none is recorded. */
  codeCache?: boolean;
  /** Platform-side log lines (a sandbox that crashed); never shown to customers. */
  log?(message: string): void;
  /**
   * False: every page goes through Vite, none takes the static path (static-page.ts). Internal:
   * the identity test compares both paths with it. Default true.
   */
  staticPath?: boolean;
  /**
   * False: sandboxes load the site template through Vite at start instead of from its bundle
   * (template-bundle.ts), as before the bundle existed. Internal, for the identity test. Default true.
   */
  templateBundle?: boolean;
}

/** True when a compile result is a failure. */
export function isPageFailure(result: CompiledPage | PageFailure): result is PageFailure {
  return !('bodyHtml' in result);
}
