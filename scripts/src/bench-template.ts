/**
 * Site template benchmark: page-shell render time for a realistic page (mean over many renders,
 * after a warm-up), side by side with a bare page so the shell's own cost is visible, and the
 * client bundle build cold versus cached, and the page weight (HTML + CSS + JS, gzip) of the
 * sample page in every theme against the budget.
 *
 *   npm run bench:template [-- --renders 2000]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildClientAssets, renderPage, TEMPLATE_VERSION, THEMES } from '@folio/site-template';
import { PAGE_WEIGHT_BUDGET, pageWeight } from '@folio/site-template/node/page-weight.ts';
import { samplePageInput, sampleSite } from '@folio/site-template/node/sample-site.tsx';
import type { PageShellInput } from '@folio/site-template/shared/types.ts';

const flag = process.argv.indexOf('--renders');
const RENDERS = flag > 0 ? Number(process.argv[flag + 1]) : 2000;

// Wall-clock samples suffer when other work shares the machine, so CPU time per render is reported too.
function timeRenders(input: PageShellInput, n: number): { meanUs: number; p50Us: number; p95Us: number; cpuUs: number; bytes: number } {
  let bytes = 0;
  for (let i = 0; i < 200; i++) bytes = renderPage(input).length; // warm-up: JIT and caches
  const samples: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    renderPage(input);
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  const used = process.cpuUsage(cpu);
  samples.sort((a, b) => a - b);
  return { cpuUs: (used.user + used.system) / n, meanUs: samples.reduce((a, b) => a + b, 0) / n, p50Us: samples[Math.floor(n / 2)], p95Us: samples[Math.floor(n * 0.95)], bytes };
}

const realistic = samplePageInput();
const bare: PageShellInput = { ...realistic, nav: [], prev: undefined, next: undefined, site: sampleSite('larch', { footer: { style: 'none' }, legal: undefined, navbar: undefined }), page: { ...realistic.page, bodyHtml: '<p>Hello.</p>', toc: [] } };

console.log(`template ${TEMPLATE_VERSION}, ${RENDERS} renders each, Node ${process.version}`);
const full = timeRenders(realistic, RENDERS);
const small = timeRenders(bare, RENDERS);
console.log(`realistic page (${(full.bytes / 1024).toFixed(1)} KB HTML, 13 nav links, TOC, footer columns): mean ${full.meanUs.toFixed(1)} µs, median ${full.p50Us.toFixed(1)} µs, p95 ${full.p95Us.toFixed(1)} µs, CPU ${full.cpuUs.toFixed(1)} µs/render, ${Math.round(1e6 / full.meanUs)} pages/s`);
console.log(`bare page (${(small.bytes / 1024).toFixed(1)} KB HTML): mean ${small.meanUs.toFixed(1)} µs, median ${small.p50Us.toFixed(1)} µs, p95 ${small.p95Us.toFixed(1)} µs, CPU ${small.cpuUs.toFixed(1)} µs/render`);
console.log(`ratio realistic / bare: ${(full.meanUs / small.meanUs).toFixed(2)}x`);

const cacheDir = await mkdtemp(join(tmpdir(), 'folio-bench-cache-'));
const out = await mkdtemp(join(tmpdir(), 'folio-bench-out-'));
try {
  let start = performance.now();
  await buildClientAssets(join(out, 'a'), { cacheDir });
  const cold = performance.now() - start;
  start = performance.now();
  await buildClientAssets(join(out, 'b'), { cacheDir });
  const warm = performance.now() - start;
  console.log(`client bundle: cold Vite build ${cold.toFixed(0)} ms, cached call ${warm.toFixed(1)} ms (${(cold / warm).toFixed(0)}x)`);
  const { assets } = await buildClientAssets(join(out, 'c'), { cacheDir });
  console.log(`page weight (sample page, gzip), budget ${(PAGE_WEIGHT_BUDGET / 1024).toFixed(0)} KB:`);
  for (const theme of THEMES) {
    const w = await pageWeight(join(out, 'c'), assets, theme);
    console.log(`  ${theme.padEnd(9)} html ${(w.html / 1024).toFixed(1)} KB + css ${(w.css / 1024).toFixed(1)} KB + js ${(w.js / 1024).toFixed(1)} KB = ${(w.total / 1024).toFixed(1)} KB (${((w.total / PAGE_WEIGHT_BUDGET) * 100).toFixed(0)}% of budget)`);
  }
} finally {
  await rm(cacheDir, { recursive: true, force: true });
  await rm(out, { recursive: true, force: true });
}
