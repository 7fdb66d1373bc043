/**
 * `npm run bench:sandbox [-- --runs 5] [-- --example]`: where a compile sandbox's start goes.
 *
 * Starts `--runs` sandboxes one after another (default 5), each as a build starts one (from the
 * platform's code cache, which is recorded first when there is none), and has each compile one
 * first chunk: the synthetic page (a TypeScript fence, a table, a callout), or with `--example`
 * every page of the bundled example site (nine fence languages), as the first build of
 * `npm run dev` does. Prints, median (range): the phases the sandbox reports (Node's own start,
 * module loading, the compiler: highlighter, Vite and the template, then the first chunk), wall
 * and CPU time of the sandbox process, plus the time from spawn seen by the builder, and the load
 * average (the machine may be shared: CPU time is the steadier figure).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeCacheTemplate, warmCodeCache } from '@folio/builder/internal/sandbox/code-cache-warmup.ts';
import { syntheticPage } from '@folio/builder/internal/compile/synthetic-page.ts';
import type { CompileInput } from '@folio/builder/internal/compile/compiler.ts';
import { DEFAULT_PAGE_LIMITS } from '@folio/builder/internal/compile/compiler.ts';
import { readProcStats } from '@folio/builder/internal/sandbox/proc-stats.ts';
import { startSandbox } from '@folio/builder/internal/sandbox/sandbox-process.ts';
import { parseArgs } from './cli-args.ts';

const example = fileURLToPath(new URL('../../builder/examples/acme-docs/', import.meta.url));

/** Every page of the example site, as a first build sends them. */
function examplePages(): CompileInput[] {
  const pages: CompileInput[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(example, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (/\.mdx?$/.test(entry.name)) pages.push({ sourcePath: rel, source: fs.readFileSync(path.join(example, rel), 'utf8'), contentRoot: 'docs/' });
    }
  };
  walk('docs');
  return pages.sort((a, b) => (a.sourcePath < b.sourcePath ? -1 : 1));
}

interface Run { phases: Map<string, { wallMs: number; cpuMs: number }>; readyMs: number; firstMs: number; readyCpu: number; firstCpu: number }

async function once(inputs: CompileInput[]): Promise<Run> {
  const started = performance.now();
  const box = startSandbox({ limits: { heapMb: DEFAULT_PAGE_LIMITS.heapMb }, codeCache: { template: codeCacheTemplate() } });
  try {
    await box.ready;
    const readyMs = performance.now() - started;
    const readyCpu = (await readProcStats(box.pid!))?.cpuMs ?? NaN;
    const readFile = async (p: string) => { try { return fs.readFileSync(path.join(example, p), 'utf8'); } catch { return undefined; } };
    const results = await box.compile(inputs, { readFile }, { cpuMs: 60_000, wallMs: 120_000 }) as Array<Record<string, unknown>>;
    const firstMs = performance.now() - started;
    const firstCpu = (await readProcStats(box.pid!))?.cpuMs ?? NaN;
    const failed = results.filter((r) => !('bodyHtml' in r));
    if (failed.length > 0) throw new Error(`the first chunk failed: ${JSON.stringify(failed[0]).slice(0, 300)}`);
    return { phases: new Map(box.startPhases().map((p) => [p.name, p])), readyMs, firstMs, readyCpu, firstCpu };
  } finally {
    await box.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spread = (xs: number[]) => `${Math.round(median(xs))} (${Math.round(Math.min(...xs))}-${Math.round(Math.max(...xs))})`;
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

async function main(): Promise<void> {
  const { flags } = parseArgs(process.argv.slice(2));
  const runs = Number(flags.runs ?? 5);
  const inputs = flags.example ? examplePages() : [{ sourcePath: 'docs/start.mdx', source: syntheticPage(1), contentRoot: 'docs/' }];
  await warmCodeCache({ heapMb: DEFAULT_PAGE_LIMITS.heapMb });
  console.log(`load average ${load()} on ${os.availableParallelism()} cores; first chunk: ${flags.example ? `the example site's ${inputs.length} pages` : 'one synthetic page'}`);
  const all: Run[] = [];
  for (let i = 0; i < runs; i++) all.push(await once(inputs));
  console.log(`sandbox start, ${runs} runs, median (range) in ms, wall / CPU of the sandbox process:`);
  for (const name of all[0].phases.keys()) {
    const of = all.map((r) => r.phases.get(name)).filter((p) => p !== undefined);
    console.log(`  ${name.padEnd(12)} ${spread(of.map((p) => p.wallMs))} / ${spread(of.map((p) => p.cpuMs))}`);
  }
  console.log(`  spawn to ready [builder's view]: ${spread(all.map((r) => r.readyMs))} wall, ${spread(all.map((r) => r.readyCpu))} CPU`);
  console.log(`  spawn to first chunk answered:   ${spread(all.map((r) => r.firstMs))} wall, ${spread(all.map((r) => r.firstCpu))} CPU`);
  console.log(`load average ${load()}`);
}

await main();
