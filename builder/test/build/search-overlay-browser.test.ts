import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { browseStatic } from '../../../site-template/test/helpers/browser.ts';
import { build, type BuildOptions } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import type { SearchManifest } from '../../src/outputs/search-index.ts';
import { PageMemory } from '../../src/state/page-bodies.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir, writeFiles } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;
/** Ten pages over several shards (`searchPerShard: 2`), each with a word of its own. */
const SITE: Record<string, string> = {
  'docs.json': JSON.stringify({ name: 'Overlay' }),
  'docs/index.mdx': page('Home', 'Welcome home.'),
  'docs/guides/alpha.mdx': page('Alpha', 'The quokkaword lives here, beside the lanternfish.'),
  'docs/guides/bravo.mdx': page('Bravo', 'Bravo talks about the obsidianite vault.'),
  ...Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`docs/reference/item-${i}.mdx`, page(`Item ${i}`, `Reference item number ${i}.`)])),
};

t.test('search overlay in the browser', async (t) => {
  const dir = tempDir();
  writeFiles(dir, SITE);
  const out = tempDir();
  const compiler = await createCompiler();
  const pageMemory = new PageMemory();
  t.teardown(() => compiler.close());
  const opts = (): BuildOptions => ({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://overlay.example', compiler, pageMemory, year: 2026, searchPerShard: 2 });
  const manifest = () => JSON.parse(fs.readFileSync(path.join(out, '_pagefind/shards.json'), 'utf8')) as SearchManifest;
  await build(opts());
  const cold = manifest();
  t.equal(cold.overlay, undefined, 'a cold build has no overlay');

  // Alpha loses quokkaword and gains zanzibarite (lanternfish stays), Bravo is deleted.
  writeFiles(dir, { 'docs/guides/alpha.mdx': page('Alpha', 'The zanzibarite lives here now, beside the lanternfish.'), 'docs/guides/bravo.mdx': null });
  const edited = await build(opts());
  t.equal(edited.compiled, 1);
  const after = manifest();
  t.same(after.overlay?.pages, ['/guides/alpha'], 'the edited page is indexed into the overlay');
  t.same(after.overlay?.deleted, ['/guides/bravo']);
  t.same(after.shards, cold.shards, 'every shard kept as it was');
  const overlayFragments = fs.readdirSync(path.join(out, after.overlay!.base!, 'fragment'));
  t.equal(overlayFragments.length, 1, 'one page indexed');

  const again = await build(opts());
  t.same({ compiled: again.compiled, uploaded: again.uploaded, deleted: again.deleted }, { compiled: 0, uploaded: 0, deleted: 0 }, 'an unchanged rebuild writes nothing');

  const { server, browser } = await browseStatic(t, out);
  const tab = await browser.newPage();
  await tab.goto(`${server.origin}/reference/item-0`);
  const search = async (query: string) => {
    await tab.keyboard.press('Control+k'); // opens the dialog, or focuses it when open
    // An empty query clears the last status first, so the wait below sees this query's.
    await tab.fill('.search-input', '');
    await tab.fill('.search-input', query);
    await tab.waitForFunction(() => (document.querySelector('.search-status')?.textContent ?? '') !== '');
    const found = await tab.locator('.search-result a').evaluateAll((links) => links.map((a) => `${a.querySelector('.search-title')?.textContent} ${a.getAttribute('href')}`));
    const status = await tab.textContent('.search-status');
    return { found, status };
  };

  await t.test('should find the word added by the edit in the edited page', async (t) => {
    t.same(await search('zanzibarite'), { found: ['Alpha /guides/alpha'], status: '1 result' });
  });

  await t.test('should not find the word the edit removed', async (t) => {
    t.same(await search('quokkaword'), { found: [], status: 'No results for “quokkaword”' });
  });

  await t.test('should show the edited page once, as it is now, for a word in both its versions', async (t) => {
    t.same(await search('lanternfish'), { found: ['Alpha /guides/alpha'], status: '1 result' });
    t.match(await tab.textContent('.search-excerpt'), 'zanzibarite', 'the excerpt is the new version\'s');
  });

  await t.test('should not find a deleted page', async (t) => {
    t.same(await search('obsidianite'), { found: [], status: 'No results for “obsidianite”' });
  });

  await t.test('should still find unchanged pages in their shards', async (t) => {
    t.same(await search('welcome'), { found: ['Home /'], status: '1 result' });
  });

  await t.test('should search the shards, still hiding covered URLs, when the listed overlay is gone', async (t) => {
    // As a reader holding a cached list after the next publish replaced the overlay's folder.
    fs.rmSync(path.join(out, after.overlay!.base!), { recursive: true });
    await tab.reload();
    t.same(await search('welcome'), { found: ['Home /'], status: '1 result' });
    t.same(await search('obsidianite'), { found: [], status: 'No results for “obsidianite”' }, 'the deleted page stays hidden');
  });
});
