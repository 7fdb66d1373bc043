/**
 * Builds API reference pages from a large real specification, GitHub's REST description as
 * published in the `@octokit/openapi` package (13 MB of JSON), and prints: operations, a cold
 * build (read, dereference, generate, render shells, exports and search), an unchanged rebuild
 * (nothing generated) and a rebuild after one summary changes (every page generated again: the
 * set is keyed by the document's blob), with the time per generated page.
 *
 *   npm run bench:api-reference [-- --spec <path to an OpenAPI document>]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, createLocalDirStore } from '@folio/builder';

const arg = process.argv.indexOf('--spec');
const specPath = arg > 0 ? process.argv[arg + 1] : fileURLToPath(import.meta.resolve('@octokit/openapi/generated/api.github.com.json'));
const spec = fs.readFileSync(specPath, 'utf8');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-api-'));
const site = path.join(dir, 'site');
fs.mkdirSync(site);
fs.writeFileSync(path.join(site, 'docs.json'), JSON.stringify({ name: 'Bench', api: { openapi: 'openapi.json' } }));
fs.writeFileSync(path.join(site, 'index.mdx'), '---\ntitle: Home\n---\n\nHello.\n');
fs.writeFileSync(path.join(site, 'openapi.json'), spec);
const store = createLocalDirStore(path.join(dir, 'out'));

console.log(`Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`document: ${path.basename(specPath)}, ${(spec.length / 1048576).toFixed(1)} MB`);
const run = async (label: string) => {
  const started = performance.now();
  const r = await build({ source: { kind: 'dir', dir: site }, store, siteUrl: 'https://bench.test' });
  const ms = performance.now() - started;
  const generated = r.apiPagesGenerated ?? 0;
  console.log(`${label}: ${(ms / 1000).toFixed(1)} s; pages ${r.pagesTotal}, API pages generated ${generated}${generated ? ` (${(ms / generated).toFixed(1)} ms per page)` : ''}, uploaded ${r.uploaded}; steps ${JSON.stringify(r.timings)}`);
};
try {
  await run('cold build');
  await run('unchanged rebuild');
  const first = spec.match(/"summary":\s*"([^"]+)"/);
  if (first) fs.writeFileSync(path.join(site, 'openapi.json'), spec.replace(first[0], `"summary": "${first[1]} (edited)"`));
  await run('one summary edited');
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
