/**
 * Runs a batch of pages through Vite's plugin pipeline with the SSR module runner: each page is
 * loaded from memory, transformed by @mdx-js/rollup (with the platform's remark plugin) and
 * evaluated in this process; the JSX runtime is imported natively.
 *
 * Why the module runner and not one Vite SSR build of the batch (`build.ssr`, output imported):
 * about as cheap per page, and it isolates failures, where one bad page fails a whole Rollup
 * build. Figures: builder/docs/benchmarks.md, "Compile engine".
 */
import { fileURLToPath } from 'node:url';
import mdx from '@mdx-js/rollup';
import { createServer, createServerModuleRunner, moduleRunnerTransform, type Plugin, type ViteDevServer } from 'vite';
import type { ModuleRunner } from 'vite/module-runner';
import type { FolioRemarkEnv } from './remark-folio.ts';
import { mdxOptions } from './mdx-options.ts';
import { recmaRunnerModule } from './recma-runner-module.ts';
import { BatchIds, folioPagesPlugin, type PageSource } from './page-plugin.ts';
import type { MdxContent } from './render.ts';
import { baseViteConfig, TEMPLATE_COMPONENTS } from './template-components.ts';

/** One page's module: its default export, or what its compile threw. */
export type ModuleResult = { ok: true; Content: MdxContent } | { ok: false; error: unknown };

/** Compiles and evaluates batches of page modules. */
export interface PageEngine {
  /** Loads every page of the batch; `paths` are repository paths, served by `source`. */
  load(ids: BatchIds, paths: string[], source: PageSource): Promise<ModuleResult[]>;
  /** The template's MDX components (`components` of `@folio/site-template`). */
  components: Record<string, unknown>;
  /** Repository modules Vite still holds (none between batches): a leak check. */
  heldModules(): number;
  close(): Promise<void>;
}

type ModuleGraph = ViteDevServer['environments']['ssr']['moduleGraph'];

/** Page modules: @mdx-js/rollup already writes them in the runner's form (recma-runner-module.ts). */
const isPageModule = (moduleId: string) => BatchIds.isRepo(moduleId) && /\.mdx?$/.test(moduleId);

/**
 * Vite's SSR transform for every other module (the template's TSX, JavaScript snippets), which
 * Vite no longer applies itself (`moduleRunnerTransform: false`). It runs after every other
 * transform, Vite's import analysis included, as Vite's own did.
 */
const runnerTransformPlugin: Plugin = {
  name: 'folio:runner-transform',
  transform: {
    order: 'post',
    async handler(code, moduleId) {
      if (isPageModule(moduleId)) return null;
      const result = await moduleRunnerTransform(code, null, moduleId, code);
      return result && { code: result.code, map: null };
    },
  },
};

/**
 * Drops every repository module from Vite's module graph. Vite has no public way to forget a
 * module, and it keeps them in several maps: missing one (the unresolved-URL map, through which
 * the runner fetches) kept every compiled page's transform result alive, ~38 KB a page.
 */
function forgetRepoModules(graph: ModuleGraph): void {
  const maps = [graph.idToModuleMap, graph.urlToModuleMap, graph.etagToModuleMap,
    (graph as unknown as { _unresolvedUrlToModuleMap: Map<string, { id: string | null }> })._unresolvedUrlToModuleMap];
  for (const map of maps) {
    for (const [key, mod] of map as Map<string, { id: string | null }>) if (mod.id !== null && BatchIds.isRepo(mod.id)) map.delete(key);
  }
  for (const file of graph.fileToModulesMap.keys()) if (BatchIds.isRepo(file)) graph.fileToModulesMap.delete(file);
}

/** Drops the repository modules the runner evaluated, keeping the template and its imports. */
function forgetRepoEvaluated(evaluated: ModuleRunner['evaluatedModules']): void {
  for (const [key, mod] of evaluated.idToModuleMap) if (BatchIds.isRepo(mod.id)) evaluated.idToModuleMap.delete(key);
  for (const [key, mod] of evaluated.urlToIdModuleMap) if (BatchIds.isRepo(mod.id)) evaluated.urlToIdModuleMap.delete(key);
  for (const key of evaluated.fileToModulesMap.keys()) if (BatchIds.isRepo(key)) evaluated.fileToModulesMap.delete(key);
  for (const mod of evaluated.idToModuleMap.values()) {
    for (const importer of mod.importers) if (BatchIds.isRepo(importer)) mod.importers.delete(importer);
  }
}

/** Whether `url`, as the runner asks for it (a bare id, `/@fs/…`, a path), is the template's components module. */
function isTemplateModule(url: string, file: string): boolean {
  return url === TEMPLATE_COMPONENTS || url.endsWith(file);
}

/**
 * Creates the module-runner engine; `env` is the remark plugin's environment. With `templateUrl`
 * (template-bundle.ts) the template is that module, imported natively by this process and by
 * every page that binds its components (component-scope.ts), instead of compiled by Vite: one
 * copy whichever path a page takes.
 */
export async function createRunnerEngine(env: FolioRemarkEnv, templateUrl?: string): Promise<PageEngine> {
  let source: PageSource | undefined;
  const server: ViteDevServer = await createServer({
    ...baseViteConfig,
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
    // Nobody debugs customer pages through source maps; generating and parsing them per module
    // cost ~7% of the compile time.
    // Page modules arrive in the runner's form; runnerTransformPlugin handles the others.
    environments: { ssr: { dev: { sourcemap: false, moduleRunnerTransform: false } } },
    plugins: [
      folioPagesPlugin(() => source!),
      mdx({ ...mdxOptions(env), recmaPlugins: [[recmaRunnerModule, { repoPath: BatchIds.repoPath }]] }),
      runnerTransformPlugin,
    ],
  });
  const environment = server.environments.ssr;
  const fetchModule = environment.fetchModule.bind(environment);
  const templateFile = templateUrl && fileURLToPath(import.meta.resolve(TEMPLATE_COMPONENTS));
  environment.fetchModule = (id, importer, options) => templateUrl && templateFile && isTemplateModule(id, templateFile)
    ? Promise.resolve({ externalize: templateUrl, type: 'module' })
    : fetchModule(id, importer, { ...options, inlineSourceMap: false } as typeof options);
  const runner: ModuleRunner = createServerModuleRunner(environment, { hmr: false, sourcemapInterceptor: false });
  // Without a bundle, through the runner, so the template's TSX is compiled with Preact's JSX
  // runtime whatever loader runs the builder; it stays cached for the compiler's life.
  const template = templateUrl ? await import(templateUrl) as Record<string, unknown> : await runner.import(TEMPLATE_COMPONENTS);
  let queue: Promise<unknown> = Promise.resolve();
  return {
    components: template.components as Record<string, unknown>,
    heldModules() {
      const graph = environment.moduleGraph as unknown as Record<string, unknown>;
      return Object.values(graph).filter((v): v is Map<string, { id: string | null }> => v instanceof Map)
        .reduce((n, map) => n + [...map.entries()].filter(([key, v]) => BatchIds.isRepo(key) || (typeof v?.id === 'string' && BatchIds.isRepo(v.id))).length, 0);
    },
    load(ids, paths, batchSource) {
      const run = async (): Promise<ModuleResult[]> => {
        source = batchSource;
        try {
          return await Promise.all(paths.map(async (path): Promise<ModuleResult> => {
            try {
              const mod = await runner.import(ids.id(path));
              return { ok: true, Content: mod.default as MdxContent };
            } catch (error) {
              return { ok: false, error };
            }
          }));
        } finally {
          // Modules of a finished batch are never imported again (ids carry the batch number).
          // The template stays: pages bind its components (component-scope.ts), and a second
          // copy would not share its contexts with the one `props.components` carries.
          forgetRepoEvaluated(runner.evaluatedModules);
          forgetRepoModules(environment.moduleGraph);
        }
      };
      // One batch at a time: `source` is per batch.
      const next = queue.then(run, run);
      queue = next.catch(() => undefined);
      return next;
    },
    async close() {
      await runner.close();
      await server.close();
    },
  };
}
