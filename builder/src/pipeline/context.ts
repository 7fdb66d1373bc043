/**
 * What every step of a build shares: its options, its limits and deadline, its timings, and the
 * spools that keep what waits for a later step on disk. The steps (clone.ts, plan.ts, …) take a
 * context and their inputs and return their results; only `build()` (build.ts) strings them
 * together.
 */
import { collectEvery } from '../collect-garbage.ts';
import type { Compiler, PageLimits } from '../compile/index.ts';
import type { FetchUrl } from '../api/spec-source.ts';
import type { ResolvedConfig } from '../config/parse-config.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { DEFAULT_LIMITS, startDeadline, type BuildLimits, type Deadline } from '../limits/build-limits.ts';
import type { LinkChecker } from '../links/link-check.ts';
import type { ShellContext } from '../outputs/page-shells.ts';
import type { PageMemory } from '../state/page-bodies.ts';
import { Spool } from '../state/spool.ts';
import { limitConcurrency } from '../store/limit-concurrency.ts';
import type { ObjectStore } from '../store/object-store.ts';
import type { CompiledPage, PageFailure, StepTimings } from '../types.ts';

/** Where the repository comes from. */
export type BuildSource =
  /** A remote over HTTP(S); objects kept in `workDir` (reuse it across builds to fetch less). */
  | { kind: 'remote'; url: string; workDir: string; branch?: string; token?: string }
  /** A local folder: a Git repository (read at `ref`, default `HEAD`) or a plain folder of files. */
  | { kind: 'dir'; dir: string; ref?: string }
  /** Files already read, e.g. a working tree kept up to date by the dev server. */
  | { kind: 'snapshot'; snapshot: RepoSnapshot };

/** Options of `build`. */
export interface BuildOptions {
  source: BuildSource;
  /**
   * The folder of the repository holding `docs.json` (`docs`, `site/docs/`; `''` the root), when
   * the project names it; default: found (see config/docs-root.ts).
   */
  docsRoot?: string;
  /** The site's store (already scoped to the site, e.g. with `prefixStore(s3, 'sites/<id>/')`). */
  store: ObjectStore;
  /** Absolute origin of the site, e.g. `https://acme.docs.example`. */
  siteUrl: string;
  /** Docs base path; default `''` (the root). */
  basePath?: string;
  /** Overrides of `DEFAULT_LIMITS`. */
  limits?: Partial<BuildLimits>;
  /** CPU time and memory each page may use in its sandbox (when the build makes its compiler). */
  pageLimits?: Partial<PageLimits>;
  /** A compiler to reuse across builds; default: one made (and closed) for this build. */
  compiler?: Compiler;
  /** Compiled pages kept in memory, reusable across builds (a long-lived worker); default: one for this build. */
  pageMemory?: PageMemory;
  /** Year for `{year}` in the copyright; default the current UTC year. */
  year?: number;
  /**
   * Whether the plan includes custom CSS (css/custom-css.ts): when true the repository's
   * stylesheets are built and linked; when false the stylesheet of the last build that had it
   * keeps being linked unchanged (a downgrade keeps it rendering, frozen) and repository changes
   * to it are not applied. Default false.
   */
  customCss?: boolean;
  /** Pages per search shard before the shard count doubles; default 400 (`MAX_PAGES_PER_SHARD`). */
  searchPerShard?: number;
  /**
   * URLs the search overlay may cover (changed and deleted pages indexed apart from their shards,
   * see outputs/search-overlay.ts) before shards are re-indexed; 0 re-indexes every changed shard.
   * Default 32 (`OVERLAY_LIMIT`).
   */
  searchOverlay?: number;
  /**
   * Called once the pages are compiled and links checked, before anything is uploaded, with the
   * pages whose published version changes (new, edited, moved) and the ones removed. The worker
   * reports them to the pages API; reporting before the publish means a build that dies in
   * between re-reports them, and a report refused (a `user` error) leaves the live site untouched.
   */
  onPages?(changes: PageChanges): Promise<void>;
  /**
   * Remembers link-check results between builds of one site (the dev server keeps one), so a
   * build re-checks only links that can have changed; default: every link is checked.
   */
  linkChecker?: LinkChecker;
  /**
   * Downloads `api.openapi` when it is a URL; default none (such a build fails with
   * `invalid_openapi`). The worker's goes through the control plane's address-checking fetcher.
   */
  fetchUrl?: FetchUrl;
  /**
   * Reader authentication is on for the site: its own prefix receives the `public` pages only,
   * and every other audience (signed-in readers, each reader group) a site of its own under a
   * prefix derived from `secret` (access/access-build.ts). Default off: the site is every page
   * without `groups`.
   */
  readerAccess?: { secret: string };
  /** Called as each step finishes (`clone`, `plan`, `compile`, …), for progress logs. */
  onStep?(step: keyof StepTimings): void;
  /** Called after each compile batch with the pages compiled so far and the number to compile. */
  onCompiled?(done: number, total: number): void;
  /** Called as a page fails to compile, with its failure (pages failed in an earlier build are only in the result). */
  onPageFailed?(failure: PageFailure): void;
  /** Pages (compiled, shells rendered, exports made) between two full garbage collections of this process (default {@link COLLECT_EVERY_PAGES}). */
  collectEveryPages?: number;
  /** Pages to compile from which search shards are indexed after the compile step (default {@link SEARCH_AFTER_COMPILE_FROM}). */
  searchAfterCompileFrom?: number;
  /**
   * Called with what every page shell of this build shares (configuration, navigation, assets,
   * search bases), so the dev server can render an edited page's shell before the next build.
   */
  onShell?(shell: ShellContext, config: ResolvedConfig): void;
}

/** A page whose published version is new. `version`: its content version label (`latest` for the default version and for sites without versions). */
export interface PageUpsert { page: CompiledPage; source: string; version: string }

/** Pages a build changes, relative to the previously published site. */
export interface PageChanges {
  /**
   * The new and changed pages, `size` at a time (default {@link UPSERT_BATCH}), each batch loaded
   * (from the page memory, else the page cache) when asked for. Loaded all at once, a cold
   * 10,000-page build held every page and its source together, ~450 MB more in the worker's build
   * process at the end of the build.
   */
  upserted(size?: number): AsyncGenerator<PageUpsert[]>;
  removed: Array<{ sourcePath: string; urlPath: string }>;
}

/** Pages per batch of {@link PageChanges.upserted} by default (the pages API's batch). */
export const UPSERT_BATCH = 200;

/** Pages compiled, rendered or exported between two full garbage collections of the build's process (see where it is used). */
export const COLLECT_EVERY_PAGES = 500;

/** The steps in pipeline order, as `BuildResult.timings` lists them. */
export const STEPS = ['clone', 'plan', 'compile', 'render', 'exports', 'index', 'publish', 'total'] as const;

/** What the steps of one build share. */
export interface BuildContext {
  opts: BuildOptions;
  store: ObjectStore;
  limits: BuildLimits;
  /** Throws once the build is over its time limit. */
  deadline: Deadline;
  /** Milliseconds per step, filled as steps end (`index` by the search index itself). */
  timings: StepTimings;
  /** Ends `step`: records its time since the previous step ended, reports it, checks the deadline. */
  lap(step: keyof StepTimings): void;
  /** Marks the end of a step without timing it (`index`, timed by itself while shells render). */
  reached(step: keyof StepTimings): void;
  /** Milliseconds since the build started. */
  elapsed(): number;
  /** Cache and store reads at once, at most. */
  limit: <T>(task: () => Promise<T>) => Promise<T>;
  /** Counts pages compiled, shells rendered and exports made towards the next full collection. */
  collect(pages: number): void;
  /**
   * On disk until wanted: compiled pages' Markdown (for `llms-full.txt`), search bundles written
   * early, and on a large build the search documents waiting for the compile step's end.
   */
  spools: Record<'markdown' | 'search' | 'documents', Spool>;
}

/** A context for one build of `opts`; its spools are closed by {@link closeContext}. */
export function createContext(opts: BuildOptions): BuildContext {
  const limits: BuildLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const deadline = startDeadline(limits);
  const timings: StepTimings = {};
  const start = performance.now();
  let mark = start;
  return {
    opts, store: opts.store, limits, deadline, timings,
    lap(step) {
      const now = performance.now();
      timings[step] = Math.round(now - mark);
      mark = now;
      opts.onStep?.(step);
      deadline.check();
    },
    reached(step) {
      mark = performance.now();
      opts.onStep?.(step);
      deadline.check();
    },
    elapsed: () => Math.round(performance.now() - start),
    limit: limitConcurrency(32),
    collect: collectEvery(opts.collectEveryPages ?? COLLECT_EVERY_PAGES),
    spools: { markdown: new Spool(), search: new Spool(), documents: new Spool() },
  };
}

/** Frees what the build kept on disk. */
export function closeContext(ctx: BuildContext): void {
  for (const spool of Object.values(ctx.spools)) spool.close();
}
