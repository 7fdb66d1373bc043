import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { build } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { readManifest } from '../../src/state/manifest.ts';
import { contentKey, recallMarkdown } from '../../src/outputs/llms-full-recall.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { PageMemory, type PageRecord } from '../../src/state/page-bodies.ts';
import { summarize } from '../../src/state/page-summaries.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import type { CompiledPage } from '../../src/types.ts';
import { tempDir, writeFiles } from '../helpers/git-repo.ts';
import { recordingStore } from '../helpers/recording-store.ts';
import { VERSIONED_SITE } from '../helpers/versioned-site.ts';

t.teardown(closePagefind);

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;
const SITE = {
  'docs.json': JSON.stringify({ name: 'Recall', seo: { description: 'Markdown recalled.' } }),
  'docs/index.mdx': page('Home', '# Home\n\nWelcome, café ☕ and 𝄞 (not ASCII, so offsets are not bytes).'),
  'docs/guides/install.mdx': page('Install', '# Install\n\n```sh\nnpm i recall\n```'),
  'docs/guides/usage.mdx': `import Tip from '/snippets/tip.mdx';\n\n${page('Usage', '# Usage\n\n<Tip />')}`,
  'snippets/tip.mdx': 'Tip: read the **manual**.\n',
  'docs/zz-last.mdx': page('Last', '# Last\n\nThe end.'),
};

/** The LLM exports a build published into `out`, by key. */
function llmsFiles(out: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const rel of fs.readdirSync(out, { recursive: true }).map(String)) {
    if (rel.endsWith('llms-full.txt') || rel.endsWith('llms.txt')) found[rel] = fs.readFileSync(path.join(out, rel), 'utf8');
  }
  return found;
}

t.test('llms-full.txt recall', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const siteUrl = 'https://recall.example';

  /** Builds `files` on top of the last build into `out`, and cold into a new folder; returns both exports. */
  const twoWays = async (dir: string, out: string, files: Record<string, string>) => {
    writeFiles(dir, files);
    const res = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl, compiler, year: 2026 });
    const cold = tempDir();
    await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(cold), siteUrl, compiler, year: 2026 });
    return { res, incremental: llmsFiles(out), cold: llmsFiles(cold) };
  };

  await t.test('should make after each change the bytes a cold build makes', async (t) => {
    const dir = tempDir();
    const out = tempDir();
    const first = await twoWays(dir, out, SITE);
    t.same(first.incremental, first.cold);
    t.match(first.incremental['llms-full.txt'], 'Tip: read the **manual**.');
    const steps: Array<[string, Record<string, string>]> = [
      ['a page edited', { 'docs/guides/install.mdx': page('Install', '# Install\n\nNow with **pnpm** too.') }],
      ['a snippet edited (its importer keeps its cache key)', { 'snippets/tip.mdx': 'Tip: the manual moved.\n' }],
      ['a page added before the others', { 'docs/aaa.mdx': page('First', '# First\n\nAdded.') }],
      ['the site renamed (header and URLs change)', { 'docs.json': JSON.stringify({ name: 'Recalled', seo: { description: 'Other.' } }) }],
    ];
    for (const [what, files] of steps) {
      const { incremental, cold } = await twoWays(dir, out, files);
      t.same(incremental, cold, what);
    }
    t.match(llmsFiles(out)['llms-full.txt'], 'Tip: the manual moved.');
    t.notMatch(llmsFiles(out)['llms-full.txt'], 'read the **manual**');
  });

  await t.test('should slice the file it published last, in a long-lived builder, and write each new one in a reused buffer', async (t) => {
    const dir = tempDir();
    const out = tempDir();
    const rec = recordingStore(out);
    const pageMemory = new PageMemory();
    const kept = { store: rec.store, siteUrl, compiler, year: 2026, pageMemory };
    writeFiles(dir, SITE);
    await build({ source: { kind: 'dir', dir }, ...kept });
    // More edits than buffers, so each buffer is written over at least twice.
    for (let i = 1; i <= 5; i++) {
      writeFiles(dir, { 'docs/guides/install.mdx': page('Install', `# Install\n\nEdit ${i}${', longer'.repeat(i)}.`) });
      rec.clear();
      await build({ source: { kind: 'dir', dir }, ...kept });
      t.notOk(rec.gets.includes('llms-full.txt'), `edit ${i}: the published file is not downloaded`);
      const cold = tempDir();
      await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(cold), siteUrl, compiler, year: 2026 });
      t.same(llmsFiles(out), llmsFiles(cold), `edit ${i}: the bytes a cold build makes`);
    }
  });

  await t.test('should not trust a published file whose bytes are not the ones recorded', async (t) => {
    const dir = tempDir();
    const out = tempDir();
    await twoWays(dir, out, SITE);
    // Same length, other bytes: the index's offsets would still fit.
    const file = path.join(out, 'llms-full.txt');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Welcome', 'Hijack'));
    const { incremental, cold } = await twoWays(dir, out, { 'docs/zz-last.mdx': page('Last', '# Last\n\nThe new end.') });
    t.same(incremental, cold);
    t.notMatch(incremental['llms-full.txt'], 'Hijack');
  });

  await t.test('should recall every language and version file of a site with fallbacks', async (t) => {
    const dir = tempDir();
    const out = tempDir();
    const first = await twoWays(dir, out, VERSIONED_SITE);
    t.ok(Object.keys(first.incremental).length > 2, 'one pair of files per language and version');
    t.same(first.incremental, first.cold);
    const { incremental, cold } = await twoWays(dir, out, { 'docs/guides/auth.mdx': page('Auth', 'Sign in with a passkey.') });
    t.same(incremental, cold);
    const manifest = await readManifest(createLocalDirStore(out));
    t.same(Object.keys(manifest?.llmsBytes ?? {}).sort(), Object.keys(incremental).filter((k) => k.endsWith('llms-full.txt')).sort());
  });

  await t.test('should load only the pages neither this build nor the published file holds', async (t) => {
    const compiled = (sourcePath: string, markdown: string): CompiledPage => ({
      sourcePath, urlPath: `/${sourcePath.slice(5, -4)}`, title: sourcePath, description: '', frontmatter: {}, bodyHtml: '<p></p>', toc: [], searchText: '', markdown, updates: [], rss: false,
    });
    const record = (p: CompiledPage, cacheKey: string, deps: Record<string, string> = {}): PageRecord => ({ cacheKey, summary: summarize(p, deps) });
    const a = record(compiled('docs/a.mdx', '# A\n'), 'ka');
    const b = record(compiled('docs/b.mdx', '# B\n'), 'kb', { 'snippets/s.mdx': 'blob1' });
    const bNow = record(compiled('docs/b.mdx', '# B again\n'), 'kb', { 'snippets/s.mdx': 'blob2' });
    const out = tempDir();
    const store = createLocalDirStore(out);
    const text = 'header\n# A\n...# B\n';
    await store.put('llms-full.txt', Buffer.from(text));
    const { createHash } = await import('node:crypto');
    const objects = { 'llms-full.txt': { hash: createHash('sha256').update(text).digest('hex'), size: Buffer.byteLength(text) } };
    const index = { 'llms-full.txt': [[contentKey(a), 7, 3], [contentKey(b), 14, 3]] as Array<[string, number, number]> };
    const loaded: string[] = [];
    const load = async (r: PageRecord) => { loaded.push(r.summary.sourcePath); return compiled(r.summary.sourcePath, r === bNow ? '# B again\n' : '# ?\n'); };
    const markdown = await recallMarkdown({ records: [a, bNow], index, objects, store, load });
    const decoded = (value: string | Uint8Array | undefined) => (typeof value === 'string' ? value : Buffer.from(value ?? []).toString('utf8'));
    t.same([decoded(markdown.get(contentKey(a))), decoded(markdown.get(contentKey(bNow)))], ['# A', '# B again']);
    t.type(markdown.get(contentKey(a)), Uint8Array, 'bytes of the published file, never decoded');
    t.same(loaded, ['docs/b.mdx'], 'the snippet changed, so b is another content');
    loaded.length = 0;
    const known = new Map([[contentKey(bNow), '# B as just compiled']]);
    const recalled = await recallMarkdown({ records: [a, bNow], known, index, objects, store, load });
    t.same([decoded(recalled.get(contentKey(a))), recalled.get(contentKey(bNow))], ['# A', '# B as just compiled']);
    t.same(loaded, [], 'pages this build compiled are not read back');
  });
});
