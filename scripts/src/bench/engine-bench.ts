/**
 * Measures the two ways of running pages through Vite side by side on the same synthetic pages,
 * plus the raw floor: `npx tsx scripts/src/bench/engine-bench.ts [pages=200]`.
 * - runner: Vite's SSR module runner (what the compiler uses, runner-engine.ts);
 * - build: one Vite SSR build of the whole batch (`build.ssr`, `write: false`), chunks written to
 *   a temporary directory and imported, then rendered the same way (happy path only: a failing
 *   page would fail the whole build, so it would need retries without the failing pages);
 * - floor: `@mdx-js/mdx` evaluate + render per page (raw-floor.ts);
 * - pool (only when asked: `… 200 pool`): the compiler with 2 worker threads.
 * Every variant is warmed on other pages first (highlighter grammars, Vite start-up excluded).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import mdx from '@mdx-js/rollup';
import { build, type Rollup } from 'vite';
import { createLocalCompiler } from '@folio/builder/internal/compile/local-compiler.ts';
import { createCompiler } from '@folio/builder/internal/sandbox/index.ts';
import { createRawFloor } from '@folio/builder/internal/compile/raw-floor.ts';
import { createSharedHighlighter } from '@folio/builder/internal/compile/highlighter.ts';
import { mdxOptions } from '@folio/builder/internal/compile/mdx-options.ts';
import { BatchIds, folioPagesPlugin } from '@folio/builder/internal/compile/page-plugin.ts';
import type { PageFacts } from '@folio/builder/internal/compile/remark-folio.ts';
import { CodeBlocks, pageComponents, renderMdx, type MdxContent } from '@folio/builder/internal/compile/render.ts';
import { baseViteConfig, loadTemplateComponents } from '@folio/builder/internal/compile/template-components.ts';
import { syntheticPage } from '@folio/builder/internal/compile/synthetic-page.ts';

const count = Number(process.argv[2] ?? 200);
const pages = (offset: number) => Array.from({ length: count }, (_, i) => ({ sourcePath: `docs/p${offset + i}.mdx`, source: syntheticPage(offset + i), contentRoot: 'docs/' }));
const ctx = { readFile: async () => undefined };
let cpu0 = process.cpuUsage();
// Wall time and this process's CPU time (user + system): the machine may be shared, CPU time is steadier.
const ms = (t: number) => {
  const cpu = process.cpuUsage(cpu0);
  return `${(performance.now() - t).toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms cpu (${((cpu.user + cpu.system) / 1000 / count).toFixed(1)} ms/page)`;
};
const start = () => {
  cpu0 = process.cpuUsage();
  return performance.now();
};

async function runner(): Promise<void> {
  const compiler = await createLocalCompiler();
  await compiler.compile(pages(10_000).slice(0, 20), ctx);
  const t = start();
  await compiler.compile(pages(0), ctx);
  console.log(`runner: ${count} pages in ${ms(t)}`);
  await compiler.close();
}

async function viteBuild(): Promise<void> {
  const highlighter = await createSharedHighlighter();
  const facts = new Map<string, PageFacts>();
  const blocks = new CodeBlocks();
  const components = pageComponents(await loadTemplateComponents(), blocks);
  const jsxRuntime = import.meta.resolve('preact/jsx-runtime');
  let batch = 0;
  const once = async (inputs: ReturnType<typeof pages>) => {
    const ids = new BatchIds(++batch);
    const byPath = new Map(inputs.map((p) => [p.sourcePath, p.source]));
    const env = { highlighter, repoPath: BatchIds.repoPath, read: async () => undefined, report: (id: string, f: PageFacts) => void facts.set(id, f), putCode: (html: string) => blocks.put(html) };
    const out = await build({
      ...baseViteConfig,
      plugins: [folioPagesPlugin(() => ({ read: async (p) => byPath.get(p) })), mdx(mdxOptions(env))],
      build: {
        ssr: true, write: false, minify: false, copyPublicDir: false,
        rollupOptions: { input: Object.fromEntries(inputs.map((p, i) => [`p${i}`, ids.id(p.sourcePath)])), output: { format: 'esm', paths: { 'preact/jsx-runtime': jsxRuntime } } },
      },
    }) as Rollup.RollupOutput;
    const dir = await mkdtemp(join(tmpdir(), 'folio-bench-'));
    await Promise.all(out.output.map((o) => writeFile(join(dir, o.fileName), o.type === 'chunk' ? o.code : o.source)));
    for (let i = 0; i < inputs.length; i++) {
      const mod = await import(pathToFileURL(join(dir, `p${i}.js`)).href);
      renderMdx(mod.default as MdxContent, components);
    }
    await rm(dir, { recursive: true });
  };
  await once(pages(10_000).slice(0, 20));
  const t = start();
  await once(pages(0));
  console.log(`build: ${count} pages in ${ms(t)}`);
  highlighter.highlighter.dispose();
}

async function floor(): Promise<void> {
  const raw = await createRawFloor();
  for (const p of pages(10_000).slice(0, 20)) await raw.render(p.source, p.sourcePath);
  const t = start();
  for (const p of pages(0)) await raw.render(p.source, p.sourcePath);
  console.log(`floor: ${count} pages in ${ms(t)}`);
  await raw.close();
}

async function pool(): Promise<void> {
  const compiler = await createCompiler({ workers: 2, workerThreshold: 1 });
  await compiler.compile(pages(10_000).slice(0, 20), ctx);
  const t = start();
  await compiler.compile(pages(0), ctx);
  console.log(`pool (2 workers; cpu = all threads): ${count} pages in ${ms(t)}`);
  await compiler.close();
}

const only = process.argv[3];
if (only === 'pool') await pool();
if (!only || only === 'runner') await runner();
if (!only || only === 'build') await viteBuild();
if (!only || only === 'floor') await floor();
