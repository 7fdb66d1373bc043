import type { Compiler } from '../compile/index.ts';
import { CONFIG_FILE, type ResolvedConfig } from '../config/parse-config.ts';
import { readRepoConfig } from '../config/read-repo-config.ts';
import { BuilderError } from '../errors.ts';
import { gitBlobId } from '../git/blob-id.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { LinkChecker } from '../links/link-check.ts';
import { readManifest } from '../state/manifest.ts';
import { prevNextByPath } from '../nav/prev-next.ts';
import type { ShellContext } from '../outputs/page-shells.ts';
import { htmlKey } from '../outputs/site-paths.ts';
import type { ObjectStore } from '../store/object-store.ts';
import type { BuildResult } from '../types.ts';
import { startDevCompiler } from './dev-compiler.ts';
import { createEarlyAnswers, type EarlyAnswers } from './early-answers.ts';
import type { WorkingTree } from './working-tree.ts';

/** A problem shown in the browser's overlay: where, and what. */
export interface DevProblem { file?: string; line?: number; column?: number; message: string }

/** What the dev server tells open browsers. */
export type DevEvent =
  /** These objects changed: a page whose key is listed fetches itself again and swaps its content. */
  | { type: 'update'; keys: string[] }
  /** The site's look changed (docs.json, the template's assets): reload the page. */
  | { type: 'reload' }
  /** The current problems (none: hide the overlay). */
  | { type: 'problems'; problems: DevProblem[] };

/** Options of `createDevSession`. */
export interface DevSessionOptions {
  tree: WorkingTree;
  /** Where the site is built (and the page cache kept). */
  store: ObjectStore;
  siteUrl: string;
  /** Path the site is served under (`/docs`); default `''` (the root). */
  basePath?: string;
  /**
   * After an edit's fast path, wait this long without another change before the full build
   * (navigation, search, exports) runs; default 0 (at once). An editor typing into the preview
   * sets it, so the next keystroke's page is not queued behind a whole-site build.
   */
  fullBuildDelayMs?: number;
  /**
   * Default: one made by `startDevCompiler` (sandboxes kept up while the session runs), closed
   * with the session; a compiler given (or promised) here is the caller's to close.
   */
  compiler?: Compiler | Promise<Compiler>;
  /** One line per build, for the terminal. */
  log?(line: string): void;
}

/** A working tree kept built: edits go to the store and to the browsers listening. */
export interface DevSession {
  /**
   * Settles once `docs.json` has been read and checked, before anything is built: a problem in
   * it is then printed and among `problems()`. The preview is "Ready" from here on.
   */
  configRead: Promise<void>;
  /**
   * Settles when a build has finished for the first time (successfully or with problems shown);
   * a build left because a file changed under it does not count. Before it the server answers
   * only what `early` can make; everything else waits for it, so a page that exists is never a
   * 404 and never half built.
   */
  ready: Promise<void>;
  /** What is answered before the first build is done (see early-answers.ts). */
  early: Pick<EarlyAnswers, 'storeCurrent' | 'object'>;
  /** Tells the session these repository paths changed on disk. */
  changed(repoPaths: Iterable<string>): void;
  /**
   * Like `changed`, and settles once those paths are built: the edited pages' new HTML is in the
   * store (or their problems are among `problems()`), by the fast path or the full build.
   */
  edited(repoPaths: Iterable<string>): Promise<void>;
  /** The URL path (`/guide/intro`) of a page of the last build or fast path, by repository path. */
  pageUrl(repoPath: string): string | undefined;
  /** Current problems. */
  problems(): DevProblem[];
  /** Registers a listener of events; returns its removal. */
  subscribe(listener: (event: DevEvent) => void): () => void;
  /** Settles when no change is waiting and no build runs (tests wait on it). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * What building needs: the pipeline, the compiler, the site template and search. Loaded once the
 * session starts (after the server listens) rather than with this module, so `dev` prints "Ready"
 * without waiting for about two thirds of its module loading; the first build awaits them.
 */
async function loadBuildModules() {
  const [{ build }, { isPageFailure }, { renderShell }, { PageMemory }] = await Promise.all([
    import('../build.ts'), import('../compile/index.ts'), import('../outputs/page-shells.ts'), import('../state/page-bodies.ts'),
  ]);
  return { build, isPageFailure, renderShell, pageMemory: new PageMemory() };
}

/**
 * Builds the working tree, then follows changes. An edit of existing pages takes a fast path:
 * those pages are compiled and their shells rendered with the last build's navigation and sent
 * at once; a full incremental build (search index, exports, navigation, llms.txt) follows.
 * Anything else (a new, moved or deleted page, a snippet, `public/`, docs.json) runs the build
 * directly. A failed page or docs.json becomes a problem for the overlay, and the last good
 * output stays served.
 */
export function createDevSession(opts: DevSessionOptions): DevSession {
  const { tree, log = () => undefined } = opts;
  const ownCompiler = !opts.compiler;
  // The caller's (`startDev` starts it before loading this module), else one made now.
  const compilerReady: Promise<Compiler> = opts.compiler ? Promise.resolve(opts.compiler) : startDevCompiler(opts.store);
  // After the compiler: the loader transforms modules one after another, and the build's ~250
  // queued first held the sandbox's start back by 1.4 s (load average 4-6); the compiler's own
  // modules are few, and the sandbox is what the first page waits for.
  const modules = compilerReady.then(loadBuildModules, loadBuildModules);
  // Failures surface where they are awaited (the first build); not as an unhandled rejection meanwhile.
  modules.catch(() => undefined);
  compilerReady.catch(() => undefined);
  const basePath = opts.basePath ?? '';
  const early = createEarlyAnswers({ tree, store: opts.store, siteUrl: opts.siteUrl, basePath, compiler: () => compilerReady });
  let markReady!: () => void;
  let built = false;
  const ready = new Promise<void>((resolve) => { markReady = resolve; }).then(() => { built = true; });
  // Kept for the session: an edit re-checks the edited page's links and the links to it.
  const linkChecker = new LinkChecker();
  let lastWarnings = '';
  const listeners = new Set<(event: DevEvent) => void>();
  const pageProblems = new Map<string, DevProblem>();
  let configProblem: DevProblem | undefined;
  let shell: { ctx: ShellContext; config: ResolvedConfig } | undefined;
  /** Source path → URL path of every page of the last build. */
  let pages = new Map<string, string>();
  const pending = new Set<string>();
  let work: Promise<void> = Promise.resolve();
  let scheduled = false;
  let closed = false;
  /** A build was left because a file changed under it: the next drain builds even if the file is back as it was. */
  let stale = false;
  /** Callers of `edited` whose paths the next drain takes. */
  let waiters: Array<() => void> = [];
  /** The full build an edit's fast path put off (`fullBuildDelayMs`). */
  let deferred: NodeJS.Timeout | undefined;

  const emit = (event: DevEvent) => { for (const l of listeners) l(event); };
  const problems = (): DevProblem[] => [...(configProblem ? [configProblem] : []), ...[...pageProblems.values()].sort((a, b) => (a.file! < b.file! ? -1 : 1))];
  const emitProblems = () => emit({ type: 'problems', problems: problems() });

  // Objects the build writes or deletes, so browsers showing them are told.
  let touched = new Set<string>();
  const store: ObjectStore = {
    ...opts.store,
    put: async (key, bytes, putOpts) => { touched.add(key); await opts.store.put(key, bytes, putOpts); },
    delete: async (keys) => { for (const k of keys) touched.add(k); await opts.store.delete(keys); },
    copy: async (from, to) => { touched.add(to); return opts.store.copy(from, to); },
  };

  /** Shows a problem of the whole site (docs.json, a limit); printed again only when it changes. */
  const siteProblem = (err: unknown) => {
    const e = err instanceof BuilderError ? err : undefined;
    const problem = { ...(e?.file ? { file: e.file } : {}), ...(e?.line ? { line: e.line } : {}), ...(e?.column ? { column: e.column } : {}), message: (err as Error).message };
    if (JSON.stringify(problem) !== JSON.stringify(configProblem)) log(`error: ${e ? e.toString() : (err as Error).message}`);
    configProblem = problem;
  };

  /** Checks docs.json alone (no build module needed), so a mistake in it shows before the first build. */
  const readConfig = async (): Promise<void> => {
    try {
      await readRepoConfig(tree, { siteUrl: opts.siteUrl, basePath });
    } catch (err) {
      siteProblem(err);
      emitProblems();
    }
  };

  const fullBuild = async (): Promise<void> => {
    clearTimeout(deferred);
    deferred = undefined;
    stale = false;
    touched = new Set();
    const started = performance.now();
    let result: BuildResult | undefined;
    try {
      const { build, pageMemory } = await modules;
      result = await build({
        // The first build takes the pages compiled early (answered before it) instead of compiling them again.
        source: { kind: 'snapshot', snapshot: frozen(tree) }, store, siteUrl: opts.siteUrl, basePath, compiler: built ? await compilerReady : early.sharing(await compilerReady), pageMemory, linkChecker,
        onShell: (ctx, config) => {
          shell = { ctx, config };
          // Made now (once per sidebar, remembered with it), so an edit's fast path finds them.
          prevNextByPath(ctx.nav);
        },
      });
      configProblem = undefined;
    } catch (err) {
      // A newer change is queued, or is queued now: the watcher may not have reported it yet.
      if (err instanceof BuilderError && err.code === 'file_changed') { stale = true; queue(err.file ? [err.file] : []); return; }
      siteProblem(err);
    }
    if (result) {
      pageProblems.clear();
      for (const f of result.errors) pageProblems.set(f.sourcePath, { file: f.sourcePath, line: f.line, column: f.column, message: f.message });
      const manifest = await readManifest(opts.store);
      pages = new Map(Object.entries(manifest?.pages ?? {}).map(([p, page]) => [p, page.urlPath]));
      log(`built ${result.pagesTotal} pages (${result.compiled} compiled, ${result.pagesFailed} failed) in ${Math.round(performance.now() - started)} ms`);
      for (const f of result.errors) log(`  ${[f.sourcePath, f.line, f.column].filter((v) => v !== undefined).join(':')}: ${f.message}`);
      // Repeated only when they change: every save builds again.
      const warnings = result.warnings.join('\n');
      if (warnings !== lastWarnings) for (const w of result.warnings) log(`  warning: ${w}`);
      lastWarnings = warnings;
    }
    const keys = [...touched].filter((k) => !k.startsWith('_folio/cache/') && !k.startsWith('_folio/manifest') && !k.startsWith('_folio/summaries'));
    // Before the first build, every page a browser shows was answered by this preview from its
    // stored site or early (early-answers.ts), with the template's assets of this version: the
    // pages are updated in place rather than reloaded.
    if (built && keys.some((k) => k.startsWith('_folio/'))) emit({ type: 'reload' });
    else if (keys.length > 0) emit({ type: 'update', keys });
    emitProblems();
    markReady();
    // After the browser has its update: the next build's llms-full.txt gets memory already touched.
    if (result) (await modules).pageMemory.files.prepare();
  };

  /** Compiles edited pages and sends their shells before the full build. */
  const fastPath = async (paths: string[]): Promise<void> => {
    const current = shell!;
    const compiler = await compilerReady;
    const { isPageFailure, renderShell } = await modules;
    const readFile = async (p: string) => (tree.files.has(p) ? Buffer.from(await tree.read(p)).toString('utf8') : undefined);
    const inputs = await Promise.all(paths.map(async (p) => ({ sourcePath: p, source: (await readFile(p)) ?? '', contentRoot: current.config.contentRoot })));
    const compiled = await compiler.compile(inputs, { readFile });
    // Pages naming an API operation get its view here too, as the full build gives it them.
    const { frontmatterApi } = await import('../api/frontmatter-pages.ts');
    const api = frontmatterApi({ snapshot: frozen(tree), contentRoot: current.config.contentRoot, config: current.config });
    const results = await Promise.all(compiled.map(async (res, i) => (await api.apply(res, inputs[i].source)).result));
    const keys: string[] = [];
    for (const [i, res] of results.entries()) {
      const p = paths[i];
      if (isPageFailure(res)) { pageProblems.set(p, { file: p, line: res.line, column: res.column, message: res.message }); continue; }
      pageProblems.delete(p);
      const key = htmlKey(res.urlPath);
      // Languages and versions: the page's own sidebar, switchers and locale, as the build renders it.
      await opts.store.put(key, Buffer.from(renderShell(res, current.ctx)));
      pages.set(p, res.urlPath);
      keys.push(key);
    }
    if (keys.length > 0) emit({ type: 'update', keys });
    emitProblems();
  };

  const drain = async (): Promise<void> => {
    scheduled = false;
    if (closed || pending.size === 0) return;
    const paths = [...pending];
    pending.clear();
    const waiting = waiters;
    waiters = [];
    const settle = () => { for (const w of waiting.splice(0)) w(); };
    try {
      const changed = await tree.refresh(paths);
      if (changed.length === 0) {
        if (stale) await fullBuild();
        return;
      }
      const edits = changed.every((p) => pages.has(p) && tree.files.has(p) && p !== CONFIG_FILE);
      if (edits && shell && !configProblem) {
        await fastPath(changed);
        settle();
        if (opts.fullBuildDelayMs) {
          // Put off while edits keep coming (each drain moves it); `queue` cancels it for the next drain.
          clearTimeout(deferred);
          deferred = setTimeout(() => { deferred = undefined; void enqueue(fullBuild); }, opts.fullBuildDelayMs);
          return;
        }
      }
      await fullBuild();
      if (changed.includes(CONFIG_FILE) && !configProblem) emit({ type: 'reload' });
    } finally {
      settle();
    }
  };

  const enqueue = (job: () => Promise<void>) => {
    work = work.then(job).catch((err: unknown) => {
      log(`error: ${(err as Error).message}`);
      // Requests waiting for the first build are answered with what there is rather than never.
      if (!stale) markReady();
    });
    return work;
  };

  const queue = (repoPaths: Iterable<string>) => {
    for (const p of repoPaths) pending.add(p);
    // The next drain builds fully if its change is not a fast-path edit; else it puts it off again.
    if (deferred) { clearTimeout(deferred); deferred = undefined; stale = true; }
    if (!scheduled) { scheduled = true; void enqueue(drain); }
  };

  const configRead = enqueue(readConfig);
  // The first build runs in the background: the server already listens, and requests wait for `ready`.
  void enqueue(fullBuild);
  return {
    configRead,
    ready,
    early,
    changed: queue,
    edited(repoPaths) {
      const done = new Promise<void>((resolve) => { waiters.push(resolve); });
      queue(repoPaths);
      return done;
    },
    pageUrl: (repoPath) => pages.get(repoPath),
    problems,
    subscribe(listener) { listeners.add(listener); return () => listeners.delete(listener); },
    async idle() {
      while (true) {
        const seen = work;
        await seen;
        if (deferred) { await new Promise((resolve) => setTimeout(resolve, 20)); continue; }
        if (seen === work && !scheduled) return;
      }
    },
    async close() {
      closed = true;
      clearTimeout(deferred);
      deferred = undefined;
      for (const w of waiters.splice(0)) w();
      markReady();
      await work;
      if (ownCompiler) await (await compilerReady).close();
    },
  };
}

/**
 * The tree's file list as it is now. Bytes are read when the build asks for them; a file edited
 * since (its blob id differs) fails the build as stale, and the change queued behind it builds
 * again, so the page cache never holds bytes under another blob's id.
 */
function frozen(tree: WorkingTree): RepoSnapshot {
  const files = new Map(tree.files);
  return {
    files,
    sizeBytes: tree.sizeBytes,
    async read(repoPath) {
      const bytes = await tree.read(repoPath);
      if (gitBlobId(bytes) !== files.get(repoPath)) throw new BuilderError(`${repoPath} changed during the build`, { kind: 'app', code: 'file_changed', file: repoPath });
      return bytes;
    },
  };
}
