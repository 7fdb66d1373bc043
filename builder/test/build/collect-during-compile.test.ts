import t from 'tap';
import { build, COLLECT_EVERY_PAGES } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { forcedCollections } from '../helpers/forced-collections.ts';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const page = (title: string) => `---\ntitle: ${title}\n---\n\n# ${title}\n\nText.\n`;

t.test('a build collects its garbage every so many pages compiled', async (t) => {
  t.ok(COLLECT_EVERY_PAGES >= 100, 'not so often that it costs: a few hundred pages apart');
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const dir = tempDir();
  makeRepo(dir, { 'docs.json': '{ "name": "Collect" }\n', 'docs/index.mdx': page('Home'), 'docs/a.mdx': page('A'), 'docs/b.mdx': page('B') });
  const opts = { source: { kind: 'dir' as const, dir }, siteUrl: 'https://collect.example', compiler, year: 2025 };

  const few = await forcedCollections(() => build({ ...opts, store: createLocalDirStore(tempDir()) }));
  t.equal(few, 0, 'three pages: none');
  const often = await forcedCollections(() => build({ ...opts, store: createLocalDirStore(tempDir()), collectEveryPages: 1 }));
  t.ok(often >= 1, `every page: collected while compiling (${often})`);
});
