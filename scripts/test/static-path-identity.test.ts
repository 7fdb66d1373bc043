/**
 * The static path (builder/src/compile/static-page.ts) must not change one byte of what a site
 * publishes. Every site here is built twice, once with the static path off (every page through
 * Vite, as before it existed) and once on, and every file written is compared byte for byte: page
 * HTML, Markdown exports, `llms.txt`/`llms-full.txt`, feeds, the search index and the builder's
 * state (the page cache holds each page's search text, TOC, updates and frontmatter). The sites:
 * 300 pages of the benchmark corpus, the bundled example site, and the builder's fixture sites.
 * A share of the pages must take the static path, or the comparison proves nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { build } from '@folio/builder/internal/build.ts';
import { closePagefind } from '@folio/builder/internal/outputs/pagefind-shard.ts';
import { createCompiler, type SandboxCompiler } from '@folio/builder/internal/sandbox/index.ts';
import { createLocalDirStore } from '@folio/builder/internal/store/local-dir-store.ts';
import type { BuildResult } from '@folio/builder/internal/types.ts';
import { generateCorpus } from '../src/generate-corpus.ts';

t.teardown(closePagefind);

const BUILDER = new URL('../../builder/', import.meta.url);
const from = (rel: string) => fileURLToPath(new URL(rel, BUILDER));
const temp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'folio-static-identity-'));

/** Every file under `dir`, by path relative to it. */
function files(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, full), fs.readFileSync(full));
  }
  return out;
}

/** The first difference of two outputs, as a line a person can read; undefined when equal. */
function firstDifference(a: Map<string, Buffer>, b: Map<string, Buffer>): string | undefined {
  // Pages and exports first, then what is made from them (`_pagefind/`, `_folio/` state; gzipped
  // files compared unzipped), so a difference names the page it starts from.
  const names = [...new Set([...a.keys(), ...b.keys()])].sort((p, q) => Number(p.startsWith('_')) - Number(q.startsWith('_')) || p.localeCompare(q));
  for (const name of names) {
    const zipped = name.endsWith('.gz');
    const x = a.get(name) && (zipped ? gunzipSync(a.get(name)!) : a.get(name));
    const y = b.get(name) && (zipped ? gunzipSync(b.get(name)!) : b.get(name));
    if (!x || !y) return `${name}: only ${x ? 'without' : 'with'} the static path`;
    if (x.equals(y)) continue;
    let i = 0;
    while (x[i] === y[i]) i++;
    const around = (buf: Buffer) => JSON.stringify(buf.subarray(Math.max(0, i - 80), i + 80).toString('utf8'));
    return `${name} differs at byte ${i}:\n  without: ${around(x)}\n  with:    ${around(y)}`;
  }
  return undefined;
}

/** A plain folder site of `pages` (repository path → text) with a minimal docs.json. */
function folderSite(pages: Record<string, string>): string {
  const dir = temp();
  fs.writeFileSync(path.join(dir, 'docs.json'), '{ "name": "Fixture" }\n');
  for (const [rel, text] of Object.entries(pages)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** The builder's compile fixture site (pages and snippets, no docs.json of its own) as a site. */
function compileFixtureSite(): string {
  const dir = temp();
  fs.cpSync(from('test/compile/fixtures/site/'), dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'docs.json'), '{ "name": "Compile fixtures" }\n');
  return dir;
}

t.test('static path identity', async (t) => {
  const compilers: Record<'off' | 'on', SandboxCompiler> = {
    off: await createCompiler({ staticPath: false, templateBundle: false }),
    on: await createCompiler(),
  };
  t.teardown(() => Promise.all([compilers.off.close(), compilers.on.close()]));

  const buildBoth = async (dir: string) => {
    const out = { off: temp(), on: temp() };
    const result = {} as Record<'off' | 'on', BuildResult>;
    for (const mode of ['off', 'on'] as const) {
      result[mode] = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out[mode]), siteUrl: 'https://docs.example', compiler: compilers[mode], year: 2026 });
    }
    const difference = firstDifference(files(out.off), files(out.on));
    for (const d of Object.values(out)) fs.rmSync(d, { recursive: true, force: true });
    return { result, difference };
  };

  const sites: Array<{ name: string; dir: () => string; atLeast: number }> = [
    // 300 pages of the corpus the build benchmark generates: Markdown, components, code, a changelog.
    { name: 'benchmark corpus (300 pages)', dir: () => { const d = temp(); generateCorpus(d, 300); return d; }, atLeast: 0.9 },
    { name: 'example site', dir: () => from('examples/acme-docs/'), atLeast: 0.5 },
    { name: 'sample-repo fixture', dir: () => from('test/fixtures/sample-repo/'), atLeast: 0.5 },
    { name: 'mintlify-site fixture', dir: () => from('test/fixtures/mintlify-site/'), atLeast: 0.3 },
    { name: 'mintlify-keys fixture', dir: () => from('test/fixtures/mintlify-keys/'), atLeast: 0.3 },
    { name: 'broken-links fixture', dir: () => from('test/fixtures/broken-links/'), atLeast: 0.3 },
    { name: 'compile fixture site', dir: compileFixtureSite, atLeast: 0 },
    {
      name: 'Mintlify components page',
      dir: () => folderSite({ 'components.mdx': fs.readFileSync(from('test/compile/fixtures/mintlify/components.mdx'), 'utf8') }),
      atLeast: 0,
    },
  ];

  let compiled = 0;
  let viaStatic = 0;
  for (const site of sites) {
    await t.test(`should publish the ${site.name} byte for byte the same with and without the static path`, async (t) => {
      const { result, difference } = await buildBoth(site.dir());
      t.equal(difference, undefined, 'every file the same');
      t.equal(result.off.staticPages, 0, 'no page took the static path when it is off');
      t.equal(result.on.compiled, result.off.compiled, 'the same pages compiled');
      t.equal(result.on.pagesFailed, result.off.pagesFailed, 'the same pages failed');
      t.ok(result.on.staticPages >= site.atLeast * result.on.compiled, `static path: ${result.on.staticPages} of ${result.on.compiled} compiled pages`);
      compiled += result.on.compiled;
      viaStatic += result.on.staticPages;
    });
  }

  await t.test('should have sent most pages of all these sites through the static path', async (t) => {
    t.ok(viaStatic > compiled / 2, `${viaStatic} of ${compiled} pages`);
  });
});
