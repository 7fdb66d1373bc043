/**
 * `npm run bench:build [-- --pages 1000] [-- --versions 3] [-- --corpus <dir>]`: builds generated corpora (1,000 and
 * 10,000 pages by default; see generate-corpus.ts), or any docs repository given with `--corpus`
 * (a folder or a Git repository, copied first), and prints, in one run: the corpus statistics,
 * cold build wall time and pages/s, a one-page edit (of the built page nearest the median size)
 * rebuilt and published to the local store, peak RSS of the build process (and sampled with
 * Pagefind's process), and the pipeline's per-page cost against the raw floor (plain
 * @mdx-js/mdx + shiki + Preact, compile/raw-floor.ts, over 100 pages at evenly spaced quantiles of page size)
 * measured here, both in wall time (the pipeline on both cores, the floor on one) and in CPU time
 * (all threads). Each build runs in its own process, started as the CLI starts it (from the
 * command's bundle), so peak RSS is the build's own. The edit is also measured with a compiler kept across builds, as the deployment
 * worker runs it. With `--versions N` the generated corpus has N versions (corpus/versioned-corpus.ts:
 * older versions' folders hold copies of a third of the pages, a tenth of them rewritten), and
 * after the edit a version is added (the newest pages frozen into a folder): the build compiles
 * only the rewritten pages.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { TEMPLATE_VERSION } from '@folio/site-template';
import { SEMI_SPACE_FLAG } from '@folio/builder/internal/allocator-env.ts';
import { buildProcessEnv } from '@folio/builder/internal/build-process-launch.ts';
import { build } from '@folio/builder/internal/build.ts';
import { createCompiler } from '@folio/builder/internal/sandbox/index.ts';
import { createRawFloor } from '@folio/builder/internal/compile/raw-floor.ts';
import { createLocalDirStore } from '@folio/builder/internal/store/local-dir-store.ts';
import { readManifest, STATE_PREFIX } from '@folio/builder/internal/state/manifest.ts';
import { LinkChecker } from '@folio/builder/internal/links/link-check.ts';
import { PageMemory } from '@folio/builder/internal/state/page-bodies.ts';
import { collectGarbage } from '@folio/builder/internal/collect-garbage.ts';
import { staticShare } from '@folio/builder/internal/cli.ts';
import { startEditCommitter } from './corpus/edit-committer.ts';
import { commitEdit, externalCorpus, generatedCorpus, pageToEdit, readPages, type BenchCorpus } from './corpus/bench-corpus.ts';
import { addVersions } from './corpus/versioned-corpus.ts';
import { commitAll } from './generate-corpus.ts';
import { formatStats, type CorpusFile } from './corpus/corpus-stats.ts';

interface Run {
  /** Kept-builder runs: the edits after the measured one, in ms. */
  laterMs?: number[];
  /** CPU of the build process alone and of its compile sandboxes (cold builds only). */
  mainCpuMs?: number; sandboxCpuMs?: number;
  wallMs: number; buildMs: number; cpuMs: number; compiled: number; staticPages: number; uploaded: number; pages: number; failed: number; maxRssMb: number;
  /** Peak of the sum of RSS over the build process and its children (Pagefind), sampled. */
  treeRssMb: number;
  timings: Record<string, number>; templateVersion: string;
}

/** Bytes of every file under `dir` (0 when it is missing). */
function folderBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + fs.statSync(path.join(e.parentPath, e.name)).size, 0);
}

/** RSS in MB of `pid` and its descendants, from /proc (0 where /proc is missing). */
function treeRssMb(pid: number): number {
  try {
    const rss = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return rss + children.reduce((sum, child) => sum + treeRssMb(child), 0);
  } catch {
    return 0;
  }
}

/**
 * Build processes start as `npm run build-site` starts one: from the command's cached bundle
 * (scripts/bin/run-bundled.mjs), not through tsx, whose loader and esbuild process would count in
 * the process tree's memory and the start-up time, and with the Node flag and allocator settings
 * every build process gets (build-process-launch.ts). `bundleReady` makes the bundle first, so no
 * measured run pays for it.
 */
const RUN_BUNDLED = fileURLToPath(new URL('../bin/run-bundled.mjs', import.meta.url));
const childArgs = (...args: string[]) => [SEMI_SPACE_FLAG, RUN_BUNDLED, '--packages=external', fileURLToPath(import.meta.url), ...args];

function bundleReady(): Promise<void> {
  return new Promise((resolve, reject) => {
    spawn(process.execPath, childArgs('--child-ready'), { stdio: 'inherit' }).on('close', (code) => (code === 0 ? resolve() : reject(new Error(`bundling the build process failed (${code})`))));
  });
}

function runBuild(dir: string, out: string, mode = '--child', ...extra: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, childArgs(mode, dir, out, ...extra), { env: buildProcessEnv(process.env), stdio: ['ignore', 'pipe', 'inherit'] });
    let tree = 0;
    const sampler = setInterval(() => { tree = Math.max(tree, treeRssMb(child.pid!)); }, 250);
    let text = '';
    child.stdout.on('data', (c: Buffer) => { text += c.toString(); });
    child.on('close', () => {
      clearInterval(sampler);
      try {
        resolve({ ...JSON.parse(text.trim().split('\n').at(-1)!), wallMs: Math.round(performance.now() - started), treeRssMb: Math.round(tree) });
      } catch { reject(new Error(`build process failed: ${text}`)); }
    });
  });
}

/** Edits a kept builder makes after the measured one, reported beside it. */
const LATER_EDITS = 4;

/**
 * A long-lived builder (the deployment worker) keeps its compiler and page memory across builds:
 * one edit warms them, the next is measured, and `LATER_EDITS` more are reported beside it.
 */
async function warmChild(dir: string, out: string, editPath: string, variant: number): Promise<void> {
  // Before anything grows the heap: the edits are committed by this helper (edit-committer.ts).
  const committer = startEditCommitter();
  const compiler = await createCompiler();
  // What the worker's build process keeps across jobs: compiler, page memory, link-check results.
  const opts = { source: { kind: 'dir' as const, dir }, store: createLocalDirStore(out), siteUrl: 'https://bench.example', compiler, pageMemory: new PageMemory(), linkChecker: new LinkChecker() };
  const page = { path: editPath, source: fs.readFileSync(path.join(dir, editPath), 'utf8') };
  await committer.commit(dir, page, variant);
  await build(opts);
  // As the worker's build process does between jobs (worker/build-process.ts).
  opts.pageMemory.files.prepare();
  collectGarbage();
  // The first edit after the warm-up is the one measured; later ones (a worker's build process
  // lives for many jobs) are reported beside it, each after the collection between builds.
  const edits: Array<{ buildMs: number; r: Awaited<ReturnType<typeof build>> }> = [];
  for (let i = 1; i <= LATER_EDITS + 1; i++) {
    await committer.commit(dir, page, variant + i);
    const t0 = performance.now();
    const r = await build(opts);
    edits.push({ buildMs: Math.round(performance.now() - t0), r });
    opts.pageMemory.files.prepare();
    collectGarbage();
  }
  committer.close();
  const [{ buildMs, r }, ...later] = edits;
  await compiler.close();
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const reply = { buildMs, laterMs: later.map((e) => e.buildMs), cpuMs: 0, compiled: r.compiled, staticPages: r.staticPages, uploaded: r.uploaded, pages: r.pagesTotal, failed: r.pagesFailed, maxRssMb, timings: r.timings, templateVersion: TEMPLATE_VERSION };
  process.stdout.write(`\n${JSON.stringify(reply)}\n`, () => process.exit(0));
}

async function child(dir: string, out: string): Promise<void> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  // Made here to read its sandboxes' CPU time, and started at once as the CLI and the worker's
  // build processes start it (its start-up overlaps reading the repository); closed once the
  // compile step is over, as the CLI closes it.
  const compiler = await createCompiler();
  compiler.prepare();
  const onStep = (step: string) => { if (step === 'compile') void compiler.close(); };
  const r = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://bench.example', compiler, onStep });
  const sandboxCpuMs = compiler.cpuMs();
  await compiler.close();
  const buildMs = Math.round(performance.now() - t0);
  // Every thread of this process and of the compile sandboxes during build(); Pagefind's process not included.
  const cpu = process.cpuUsage(cpu0);
  const mainCpuMs = Math.round((cpu.user + cpu.system) / 1000);
  const cpuMs = Math.round(mainCpuMs + sandboxCpuMs);
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const reply = { buildMs, cpuMs, mainCpuMs, sandboxCpuMs: Math.round(sandboxCpuMs), compiled: r.compiled, staticPages: r.staticPages, uploaded: r.uploaded, pages: r.pagesTotal, failed: r.pagesFailed, maxRssMb, timings: r.timings, templateVersion: TEMPLATE_VERSION };
  process.stdout.write(`\n${JSON.stringify(reply)}\n`, () => process.exit(0));
}

const steps = (r: Run) => Object.entries(r.timings).map(([k, v]) => `${k} ${v}`).join(', ');

interface Floor { wallMs: number; cpuMs: number; rendered: number; skipped: number; meanBytes: number }

/**
 * The raw floor's wall and CPU (this process, all threads) per page, one page at a time, over
 * `samples` pages taken at evenly spaced quantiles of page size (the (k + ½)/n-th largest), so
 * the sample's size distribution, and so its mean, follows the corpus's: a sample taken by
 * position over-weighted large pages and made the floor look slower than it is. Pages the floor
 * cannot render (imports of snippets, which it does not resolve) are skipped and counted.
 */
async function rawFloorPerPage(pages: readonly CorpusFile[], samples: number): Promise<Floor> {
  const floor = await createRawFloor();
  const bySize = [...pages].sort((a, b) => a.source.length - b.source.length);
  const n = Math.min(samples, pages.length);
  const picked = Array.from({ length: n }, (_, k) => bySize[Math.floor(((k + 0.5) * bySize.length) / n)]);
  const render = (p: CorpusFile) => floor.render(p.source, p.path).then(() => true, () => false);
  try {
    for (const p of picked.slice(0, 5)) await render(p);
    let rendered = 0;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    let bytes = 0;
    for (const p of picked) {
      if (!(await render(p))) continue;
      rendered++;
      bytes += p.source.length;
    }
    const cpu = process.cpuUsage(cpu0);
    const done = Math.max(rendered, 1);
    return { wallMs: (performance.now() - t0) / done, cpuMs: (cpu.user + cpu.system) / 1000 / done, rendered, skipped: picked.length - rendered, meanBytes: bytes / done };
  } finally {
    await floor.close();
  }
}

async function bench(label: string, makeCorpus: (dir: string) => BenchCorpus, addVersion?: (dir: string) => string): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-'));
  const dir = path.join(root, 'repo');
  const out = path.join(root, 'out');
  const g0 = performance.now();
  const corpus = makeCorpus(dir);
  const pages = corpus.pages.length;
  console.log(`\n== ${label}: ${pages} pages (corpus ready in ${Math.round(performance.now() - g0)} ms)`);
  console.log(formatStats(corpus.stats));
  for (const note of corpus.notes) console.log(`note: ${note}`);
  const floor = await rawFloorPerPage(corpus.pages, 100);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`raw floor: ${floor.wallMs.toFixed(1)} ms wall, ${floor.cpuMs.toFixed(1)} ms CPU per page (plain @mdx-js/mdx + shiki + Preact, one thread, ${floor.rendered} pages at evenly spaced size quantiles, mean ${kb(floor.meanBytes)} against the corpus's ${kb(corpus.stats.bytes.total / pages)}${floor.skipped ? `; ${floor.skipped} it cannot render skipped` : ''})`);
  const cold = await runBuild(dir, out);
  const perPage = cold.buildMs / pages;
  console.log(`cold build: ${cold.buildMs} ms in build(), ${cold.wallMs} ms process wall; ${(pages / (cold.buildMs / 1000)).toFixed(1)} pages/s; compiled ${cold.compiled}, failed ${cold.failed}, uploaded ${cold.uploaded}; peak RSS ${cold.maxRssMb} MB (with its compile sandboxes and Pagefind's process: ${cold.treeRssMb} MB sampled)`);
  console.log(`  ${staticShare(cold.staticPages, cold.compiled)}`);
  const manifest = await readManifest(createLocalDirStore(out));
  const state = folderBytes(path.join(out, STATE_PREFIX));
  const site = folderBytes(out) - state;
  console.log(`builder state (${STATE_PREFIX}, kept outside the public prefix by the platform): ${(state / 1048576).toFixed(1)} MB beside ${(site / 1048576).toFixed(1)} MB of site output (${((100 * state) / site).toFixed(1)}%)`);
  const target = pageToEdit(corpus.pages, (p) => manifest?.pages[p] !== undefined && !manifest.pages[p].failed);
  console.log(`edited page: ${target.path} (${(target.source.length / 1024).toFixed(1)} KB, the built page nearest the median size)`);
  const edit = async (variant: number) => {
    commitEdit(dir, target, variant);
    return runBuild(dir, out);
  };
  let run = await edit(1);
  // The page cache is keyed by the template's version, a hash of its sources: an edit to the
  // template while the cold build ran makes this build recompile everything. Say so and measure
  // the edit again on the rebuilt site.
  for (let variant = 2; run.compiled > 1 && variant <= 3; variant++) {
    console.log(`one-page edit recompiled ${run.compiled} pages (template version ${cold.templateVersion} -> ${run.templateVersion}); measuring again`);
    run = await edit(variant);
  }
  console.log(`one-page edit in a fresh process (compiler started for it): ${run.buildMs} ms in build() (rebuild + publish), ${run.wallMs} ms process wall; compiled ${run.compiled}, uploaded ${run.uploaded}; peak RSS ${run.maxRssMb} MB`);
  console.log(`  steps (ms): cold ${steps(cold)}; edit ${steps(run)}`);
  if (addVersion) {
    const added = addVersion(dir);
    commitAll(dir, 'add a version');
    const next = await runBuild(dir, out);
    console.log(`adding a version (${added}): ${next.buildMs} ms in build(), compiled ${next.compiled} of ${next.pages} pages, uploaded ${next.uploaded}; steps (ms): ${steps(next)}`);
  }
  const warm = await runBuild(dir, out, '--child-warm', target.path, '10');
  console.log(`one-page edit with a compiler kept across builds (as the deployment worker runs it): ${warm.buildMs} ms in build(); compiled ${warm.compiled}, uploaded ${warm.uploaded}; steps (ms): ${steps(warm)}`);
  const later = [...warm.laterMs ?? []].sort((a, b) => a - b);
  if (later.length) console.log(`  the same builder's next ${later.length} edits: ${(warm.laterMs ?? []).join(', ')} ms in build(); median ${later[Math.floor((later.length - 1) / 2)]} ms`);
  console.log(`per-page cost: pipeline ${perPage.toFixed(1)} ms wall (cold build / pages, both cores), raw floor ${floor.wallMs.toFixed(1)} ms wall (one thread); ratio ${(perPage / floor.wallMs).toFixed(2)}x`);
  const cpuPerPage = cold.cpuMs / pages;
  console.log(`per-page CPU: pipeline ${cpuPerPage.toFixed(1)} ms (all threads of the build process and its compile sandboxes / pages), raw floor ${floor.cpuMs.toFixed(1)} ms; ratio ${(cpuPerPage / floor.cpuMs).toFixed(2)}x`);
  // Which side the CPU went to: the sandboxes compile, the build process plans, receives
  // results, renders shells and writes; both share the same cores.
  console.log(`  of which: build process ${((cold.mainCpuMs ?? 0) / pages).toFixed(1)} ms, compile sandboxes ${((cold.sandboxCpuMs ?? 0) / pages).toFixed(1)} ms per page`);
  fs.rmSync(root, { recursive: true, force: true });
}

const args = process.argv.slice(2);
if (args[0] === '--child-ready') process.exit(0);
else if (args[0] === '--child') await child(args[1], args[2]);
else if (args[0] === '--child-warm') await warmChild(args[1], args[2], args[3], Number(args[4]));
else {
  const { values } = parseArgs({ args, options: { pages: { type: 'string' }, corpus: { type: 'string' }, versions: { type: 'string' } } });
  const versions = Number(values.versions ?? 1);
  const sizes = values.pages ? [Number(values.pages)] : [1000, 10000];
  const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`machine: ${os.cpus().length} cores, node ${process.version}; load average ${load()}`);
  await bundleReady();
  if (values.corpus) await bench(values.corpus, (dir) => externalCorpus(values.corpus!, dir));
  else if (versions > 1) {
    for (const n of sizes) {
      // The next version: a folder for it, the newest stays the default (see versioned-corpus.ts).
      const more = (dir: string) => addVersions(dir, readPages(dir, 'docs/').filter((p) => !/^docs\/v\d+\//.test(p.path)), 'docs/', versions + 1);
      await bench(`generated corpus with ${versions} versions`, (dir) => generatedCorpus(dir, n, versions), more);
    }
  } else for (const n of sizes) await bench('generated corpus', (dir) => generatedCorpus(dir, n));
  console.log(`load average at the end: ${load()}`);
}
