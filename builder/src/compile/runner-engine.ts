/**
 * Runs a batch of pages through Vite's plugin pipeline with the SSR module runner: each page is
 * loaded from memory, transformed by @mdx-js/rollup (with the platform's remark plugin) and
 * evaluated in this process; the JSX runtime is imported natively.
 */
import mdx from '@mdx-js/rollup';
import { createServer, createServerModuleRunner, type ViteDevServer } from 'vite';
import type { ModuleRunner } from 'vite/module-runner';
import type { FolioRemarkEnv } from './remark-folio.ts';
import { mdxOptions } from './mdx-options.ts';
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
  close(): Promise<void>;
}

/** Creates the module-runner engine; `env` is the remark plugin's environment. */
export async function createRunnerEngine(env: FolioRemarkEnv): Promise<PageEngine> {
  let source: PageSource | undefined;
  const server: ViteDevServer = await createServer({
    ...baseViteConfig,
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
    // Nobody debugs customer pages through source maps; generating and parsing them per module
    // cost ~7% of the compile time.
    environments: { ssr: { dev: { sourcemap: false } } },
    plugins: [folioPagesPlugin(() => source!), mdx(mdxOptions(env))],
  });
  const environment = server.environments.ssr;
  const fetchModule = environment.fetchModule.bind(environment);
  environment.fetchModule = (id, importer, options) => fetchModule(id, importer, { ...options, inlineSourceMap: false } as typeof options);
  const runner: ModuleRunner = createServerModuleRunner(environment, { hmr: false, sourcemapInterceptor: false });
  // Through the runner, so the template's TSX is compiled with Preact's JSX runtime whatever
  // loader runs the builder; it stays cached for the compiler's life.
  const template = await runner.import(TEMPLATE_COMPONENTS);
  let queue: Promise<unknown> = Promise.resolve();
  return {
    components: template.components as Record<string, unknown>,
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
          runner.evaluatedModules.clear();
          const graph = environment.moduleGraph;
          for (const id of [...graph.idToModuleMap.keys()]) {
            if (!BatchIds.isRepo(id)) continue;
            const mod = graph.idToModuleMap.get(id)!;
            graph.idToModuleMap.delete(id);
            if (mod.url) graph.urlToModuleMap.delete(mod.url);
            if (mod.file) graph.fileToModulesMap.delete(mod.file);
          }
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
