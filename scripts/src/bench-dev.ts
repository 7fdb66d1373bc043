/**
 * `npm run bench:dev [-- --pages 1000] [-- --edits 5] [-- --runs 3] [-- --only start|edits]
 * [-- --start-pages 1000]`: the local preview's two figures.
 *
 * 1. Start time on the bundled example site (or, with `--start-pages N`, on a generated corpus of
 *    N pages, where the page asked for is compiled ahead of the other N - 1): `npm run dev`'s own process (Node and tsx, started
 *    as the npm script starts it) from spawn to its "Ready" line, first with an empty cache (a
 *    copy of the example at a new path), then again on the same copy (the cache kept in the temp
 *    folder, as a second `npm run dev` finds it). Also the time until the home page, requested
 *    the moment "Ready" is printed, is answered (before the first build, which runs in the
 *    background, is done: see the builder's dev/early-answers.ts), and until that build is done.
 *    Repeated `--runs` times (default 3), each on a new copy; median and range.
 * 2. Save-to-browser latency on a generated corpus (`--pages`, default 1,000): Chromium shows a
 *    page of typical size; each edit appends a paragraph to its file and the time is taken from
 *    just before the write to the moment the new text is in the page's DOM (no reload). Between
 *    edits the follow-up build (search, exports) is let finish, and its time is printed too.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { urlPathFor } from '@folio/builder/internal/compile/url-path.ts';
import { devCacheDir, startDev } from '@folio/builder/internal/dev/dev-command.ts';
import { parseArgs } from './cli-args.ts';
import { generatedCorpus, pageToEdit } from './corpus/bench-corpus.ts';
import { editedSource, editMarker } from './generate-corpus.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const example = path.join(root, 'builder/examples/acme-docs');

/** What one start of `npm run dev` took, in ms from spawn. */
interface StartTimes { ready: number; firstPage: number; built: number }

/**
 * Runs `npm run dev` on `dir`: the ms from spawn to its "Ready" line, to the answer of the home
 * page requested at that moment, and to its first build's "built" line. The process is stopped
 * only after that build, so the next start finds the cache as a preview left running would.
 */
function timeStart(dir: string): Promise<StartTimes> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const since = () => Math.round(performance.now() - started);
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'builder/src/cli.ts'), 'dev', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let asked = false;
    let ready = 0;
    let built = 0;
    let answered: Promise<number> | undefined;
    const finish = () => {
      if (!answered || !built) return;
      answered.then((firstPage) => resolve({ ready, firstPage, built }), reject).finally(() => child.kill('SIGTERM'));
    };
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (!built && /^built \d+ pages/m.test(out)) { built = since(); finish(); }
      const url = /^Ready in .* at (http:\/\/\S+?)\/ /m.exec(out)?.[1];
      if (!url || asked) return;
      asked = true;
      ready = since();
      answered = fetch(`${url}/`).then(async (res) => {
        if (res.status !== 200) throw new Error(`the home page answered ${res.status}`);
        await res.arrayBuffer();
        return since();
      });
      answered.catch(() => child.kill('SIGTERM'));
      finish();
    });
    child.on('close', (code) => { if (!asked || !built) reject(new Error(`dev exited with ${code} before its first build:\n${out}`)); });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** `median ms (min-max)` of a series. */
const spread = (xs: number[]) => `${median(xs)} ms (${Math.min(...xs)}-${Math.max(...xs)})`;

async function main(): Promise<void> {
  const { flags } = parseArgs(process.argv.slice(2));
  const pages = Number(flags.pages ?? 1000);
  const edits = Number(flags.edits ?? 5);
  const runs = Number(flags.runs ?? 3);
  const only = flags.only;
  const startPages = flags['start-pages'] === undefined ? undefined : Number(flags['start-pages']);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-dev-'));
  const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`load average ${load()} on ${os.availableParallelism()} cores`);
  const copies: string[] = [];
  try {
    if (only !== 'edits') {
      const cold: StartTimes[] = [];
      const warm: StartTimes[] = [];
      const source = startPages ? generatedCorpus(path.join(tmp, 'start-corpus'), startPages).dir : example;
      for (let i = 0; i < runs; i++) {
        const copy = path.join(tmp, `start-${i}`);
        copies.push(copy);
        fs.cpSync(source, copy, { recursive: true });
        cold.push(await timeStart(copy));
        warm.push(await timeStart(copy));
      }
      const site = startPages ? `a generated corpus of ${startPages} pages` : 'the example site';
      console.log(`start on ${site}, ${runs} runs, median (range), npm run dev process from spawn [targets: home page ≤ 3,000 ms on the example, ≤ 1,000 ms with an empty cache at 1,000 pages]:`);
      for (const [name, series] of [['empty cache', cold], ['cache kept', warm]] as const) {
        console.log(`  ${`${name}:`.padEnd(12)} "Ready" ${spread(series.map((r) => r.ready))}; home page requested then, answered ${spread(series.map((r) => r.firstPage))}; first build done ${spread(series.map((r) => r.built))}`);
      }
      console.log(`load average ${load()}`);
    }
    if (only !== 'start') await benchEdits(tmp, pages, edits);
  } finally {
    // A stopped preview may still be writing its cache for a moment: retry instead of failing the run.
    fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    for (const copy of copies) fs.rmSync(devCacheDir(copy), { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

/** Save-to-browser latency on a generated corpus of `pages` pages, `edits` times. */
async function benchEdits(tmp: string, pages: number, edits: number): Promise<void> {
  const corpus = generatedCorpus(path.join(tmp, 'corpus'), pages);
  const t0 = performance.now();
  const dev = await startDev({ dir: corpus.dir, port: 0, cacheDir: path.join(tmp, 'corpus-cache') });
  await dev.session.ready;
  console.log(`${pages} pages: first build ${Math.round(performance.now() - t0)} ms`);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const target = pageToEdit(corpus.pages);
    const page = await browser.newPage();
    await page.goto(dev.url + urlPathFor(target.path, corpus.contentRoot));
    const latencies: number[] = [];
    const follow: number[] = [];
    for (let i = 1; i <= edits; i++) {
      const marker = editMarker(i);
      const started = performance.now();
      fs.writeFileSync(path.join(corpus.dir, target.path), editedSource(target.source, i));
      await page.waitForFunction((text) => document.querySelector('.prose')?.textContent?.includes(text), marker, { polling: 'raf', timeout: 60_000 });
      latencies.push(Math.round(performance.now() - started));
      await dev.session.idle();
      follow.push(Math.round(performance.now() - started));
    }
    console.log(`${pages} pages, edit of ${target.path} (${(target.source.length / 1024).toFixed(1)} KB): save to new text in the browser median ${median(latencies)} ms (${latencies.join(', ')}) [target ≤ 300 ms]; follow-up build done (search, exports) median ${median(follow)} ms`);
  } finally {
    await browser.close();
    await dev.close();
  }
}

await main();
