/**
 * What the preview answers before its first build is done, so the page an author opens at
 * "Ready" does not wait for every page, the search index and the exports (as `astro dev` and
 * `vitepress dev` compile the page asked for first):
 *
 * - **The site of this very tree.** When the store holds a build of exactly the files on disk
 *   (same blob ids, compiler and template: a restart with nothing edited meanwhile), everything
 *   is served from it at once. The first build then only re-renders what depends on the
 *   preview's address, if the port changed.
 * - **The page asked for, compiled first.** Otherwise a page's HTML is made on its own: its
 *   compiled result from the page cache when it holds, else compiled at the head of the
 *   sandbox's queue (the first build takes that result instead of compiling the page again),
 *   in the real site template with the real configuration, client assets, search base and
 *   API reference pages. The sidebar and previous/next links take the other pages' titles from
 *   their frontmatter or first heading (`navFacts`), since they are not compiled yet. The
 *   template's client bundle, the page's utilities stylesheet and the images, fonts and
 *   stylesheets of the repository are answered with it.
 *
 * Anything else (search, exports, `llms.txt`, redirects, API pages, a page with interactive
 * components, a page that fails to compile, a 404) waits for the first build: never a 404 for
 * something that exists, never a half-built file. A page answered early is fetched again when
 * the first build lands (the dev client's `update`), and its content, sidebar and table of
 * contents are swapped where they differ.
 */
import fs from 'node:fs';
import { TEMPLATE_VERSION } from '@folio/site-template/node/template-version.ts';
import { isPageFailure, type Compiler, type CompileContext, type CompileInput } from '../compile/compiler.ts';
import { COMPILER_VERSION } from '../compile/compiler-version.ts';
import { urlPathFor } from '../compile/url-path.ts';
import type { ResolvedConfig } from '../config/parse-config.ts';
import { CACHE_PREFIX, readManifest, type BuildManifest } from '../state/manifest.ts';
import { htmlKey } from '../outputs/site-paths.ts';
import { planSite } from '../pipeline/site-plan.ts';
import { contentTypeFor } from '../store/content-type.ts';
import { prefixStore, type ObjectStore } from '../store/object-store.ts';
import type { CompiledPage, PageFailure } from '../types.ts';
import type { NavPage } from '../nav/build-nav.ts';
import { navFacts } from './nav-facts.ts';
import type { WorkingTree } from './working-tree.ts';

type Result = CompiledPage | PageFailure;

/** Options of {@link createEarlyAnswers}. */
export interface EarlyAnswersOptions {
  tree: WorkingTree;
  /** The store the session builds into (its state is read, never written). */
  store: ObjectStore;
  siteUrl: string;
  /** Path the site is served under; default `''`. */
  basePath?: string;
  /** The session's compiler, once made. */
  compiler(): Promise<Compiler>;
}

/** A site object answered before the first build. */
export interface EarlyObject {
  bytes: Uint8Array;
  /** A page made on its own: its client asks for it again once the first build is done. */
  page?: boolean;
}

/** See the module comment. */
export interface EarlyAnswers {
  /** True when the store holds the site of exactly the working tree as it is. */
  storeCurrent(): Promise<boolean>;
  /** The object at `key`, or undefined: it waits for the first build. Never throws. */
  object(key: string): Promise<EarlyObject | undefined>;
  /** Wraps the build's compiler so a page compiled early from the same text is not compiled again. */
  sharing(compiler: Compiler): Compiler;
}

/** Repository files answered early: what a page needs to look right (never a page or an export). */
const EARLY_TYPES = /^(image\/|font\/|text\/css)/;

export function createEarlyAnswers(opts: EarlyAnswersOptions): EarlyAnswers {
  const { tree, store } = opts;
  let manifest: Promise<BuildManifest | undefined> | undefined;
  const previous = () => (manifest ??= readManifest(store).catch(() => undefined));
  // Read now, while docs.json is checked: the first request then knows at once whether the
  // stored site is this tree's, instead of reading it between the build's module loads.
  void previous();
  /** Pages compiled early: their text, what their compile read, and the result. */
  const compiled = new Map<string, { source: string; reads: Map<string, string | undefined>; result: Promise<Result> }>();
  const made = new Map<string, Promise<EarlyObject | undefined>>();
  /** Stylesheets of the Tailwind utilities early pages use, by key. */
  const sheets = new Map<string, string>();

  let site: ReturnType<typeof readSite> | undefined;
  async function readSite() {
    // The build's own reading of the site: the same configuration and the same pages.
    const { config, layout } = await planSite(tree, { siteUrl: opts.siteUrl, basePath: opts.basePath ?? '' });
    const byHtml = new Map(layout.pages.map((p) => [htmlKey(urlPathFor(p, config.contentRoot)), p]));
    const [{ clientBundle }, tailwind] = await Promise.all([import('../pipeline/render-shells.ts'), import('../outputs/tailwind-css.ts')]);
    return { config, layout, byHtml, assets: new Set(layout.assets.values()), clientBundle, tailwind };
  }

  const text = async (p: string) => (tree.files.has(p) ? Buffer.from(await tree.read(p)).toString('utf8') : undefined);

  /** The page's compiled result: the page cache's when it holds for the tree, else compiled now. */
  const compiledPage = async (p: string, contentRoot: string): Promise<Result> => {
    const blob = tree.files.get(p)!;
    // Loaded on use: it brings the compiler's pool, which the preview need not load before "Ready".
    const { createPageCache, pageCacheKey } = await import('../cache/page-cache.ts');
    const cache = createPageCache(prefixStore(store, CACHE_PREFIX));
    const hit = await cache.get(pageCacheKey(blob, COMPILER_VERSION, TEMPLATE_VERSION, contentRoot), p, tree.files).catch(() => undefined);
    if (hit) return hit.page;
    const source = (await text(p)) ?? '';
    const reads = new Map<string, string | undefined>();
    const readFile = async (repoPath: string) => {
      const t = await text(repoPath);
      reads.set(repoPath, t);
      return t;
    };
    const result = opts.compiler().then((c) => c.compile([{ sourcePath: p, source, contentRoot }], { readFile, first: true })).then((r) => r[0]);
    compiled.set(p, { source, reads, result });
    return result;
  };

  const renderPage = async (p: string): Promise<EarlyObject | undefined> => {
    const s = await (site ??= readSite());
    const { config } = s;
    const contentRoot = config.contentRoot;
    // A redirect from the page's own URL wins over the page, as on the built site.
    const { redirectRules } = await import('../outputs/redirects-manifest.ts');
    if (redirectRules(config).some((r) => r.source === urlPathFor(p, contentRoot))) return undefined;
    // Beside the compile: the template, the sidebar's facts, the API pages and the client bundle.
    const modules = Promise.all([
      import('../outputs/page-shells.ts'), import('../nav/dimension-nav.ts'), import('../outputs/search-index.ts'),
    ]);
    const others = Promise.all(s.layout.pages.map(async (q) => (q === p ? undefined : navFacts(q, (await text(q)) ?? '', contentRoot))));
    const api = apiNavPages(config);
    const bundle = s.clientBundle();
    for (const pending of [modules, others, api, bundle]) pending.catch(() => undefined);
    const page = await compiledPage(p, contentRoot);
    if (isPageFailure(page) || page.islands) return undefined;
    const [{ renderShell }, { siteNav }, { plannedSearchBase }] = await modules;
    const pages: NavPage[] = (await others).map((o) => o ?? page);
    // An author's page wins its URL over a generated API page, as in the build.
    const taken = new Set(pages.map((q) => q.urlPath));
    pages.push(...(await api).filter((a) => !taken.has(a.urlPath)));
    const { nav, dimensions } = siteNav(pages, config, { sources: new Set(s.layout.pages) });
    const assets = { ...(await bundle).assets };
    // Its own utilities only (the build's sheet covers every page's): the same look for this page.
    const classes = s.tailwind.classCandidates(page.bodyHtml);
    const utilities = classes.length ? await s.tailwind.tailwindCss(classes) : '';
    if (utilities) {
      const key = s.tailwind.tailwindKey(utilities);
      sheets.set(key, utilities);
      assets.utilities = `/${key}`;
    }
    // A custom stylesheet the last build linked stays linked (the preview builds none of its own).
    const custom = (await previous())?.customCss;
    if (custom && (await store.head(custom).catch(() => undefined))) assets.custom = `/${custom}`;
    const searchBase = plannedSearchBase(pages.map((q) => ({ urlPath: q.urlPath, searchHash: '' })), config.basePath);
    const shell = { site: config, nav, assets, searchBase, year: new Date().getUTCFullYear(), ...(dimensions ? { dimensions } : {}) };
    const html = renderShell(page, shell);
    return { bytes: Buffer.from(html), page: true };
  };

  /** The API reference pages the build generates from `api.openapi` (none when it cannot be read: the build reports it). */
  const apiNavPages = async (config: ResolvedConfig): Promise<NavPage[]> => {
    const [{ navigationOpenapi }, { specSource }, { generateApiPages }] = await Promise.all([
      import('../config/navigation-schema.ts'), import('../api/spec-source.ts'), import('../api/api-pages.ts'),
    ]);
    const openapi = config.openapi ?? (config.navigation ? navigationOpenapi(config.navigation) : undefined);
    if (openapi === undefined) return [];
    const source = await specSource(openapi, tree, undefined, config.contentRoot).catch(() => undefined);
    return source ? generateApiPages(await source.read(), source.name).then((r) => r.pages, () => []) : [];
  };

  const answer = async (key: string): Promise<EarlyObject | undefined> => {
    const s = await (site ??= readSite());
    const page = s.byHtml.get(key);
    if (page) return renderPage(page);
    const sheet = sheets.get(key);
    if (sheet !== undefined) return { bytes: Buffer.from(sheet) };
    if (key.startsWith('_folio/')) {
      const file = (await s.clientBundle()).files.get(key);
      return file === undefined ? undefined : { bytes: await fs.promises.readFile(file) };
    }
    if (!s.assets.has(key) || !EARLY_TYPES.test(contentTypeFor(key))) return undefined;
    // `public/` wins over a content file of the same key (repo-layout.ts), as when published.
    const repoPath = [...s.layout.assets].find(([, k]) => k === key)?.[0];
    return repoPath === undefined ? undefined : { bytes: await tree.read(repoPath) };
  };

  return {
    async storeCurrent() {
      const m = await previous();
      if (!m || m.compilerVersion !== COMPILER_VERSION || m.templateVersion !== TEMPLATE_VERSION) return false;
      const files = Object.entries(m.files);
      return files.length === tree.files.size && files.every(([p, oid]) => tree.files.get(p) === oid);
    },
    object(key) {
      let pending = made.get(key);
      if (!pending) {
        pending = answer(key).catch(() => undefined);
        made.set(key, pending);
      }
      return pending;
    },
    sharing(compiler) {
      return {
        ...compiler,
        async compile(inputs: CompileInput[], ctx: CompileContext) {
          // A page compiled early from the same text, whose imports read the same bytes now.
          const reuse = await Promise.all(inputs.map(async (input) => {
            const early = compiled.get(input.sourcePath);
            if (!early || early.source !== input.source) return undefined;
            for (const [p, t] of early.reads) if ((await ctx.readFile(p)) !== t) return undefined;
            // A sandbox that failed it is the platform's failure: the build compiles the page itself.
            return early.result.catch(() => undefined);
          }));
          const rest = inputs.filter((_, i) => !reuse[i]);
          const fresh = rest.length ? await compiler.compile(rest, ctx) : [];
          let next = 0;
          return Promise.all(inputs.map((_, i) => reuse[i] ?? fresh[next++]));
        },
        close: () => compiler.close(),
      };
    },
  };
}
