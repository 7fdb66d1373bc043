import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import t from 'tap';
import { build, COLLECT_EVERY_PAGES } from '../../src/build.ts';
import { createCompiler } from '../../src/compile/index.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const page = (title: string) => `---\ntitle: ${title}\n---\n\n# ${title}\n\nText.\n`;

/** Full collections this process was asked for (not the ones V8 chose) while `run` ran. */
async function forcedCollections(run: () => Promise<unknown>): Promise<number> {
  const seen: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => seen.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  await run();
  await new Promise((resolve) => setTimeout(resolve, 50));
  seen.push(...observer.takeRecords());
  observer.disconnect();
  return seen.filter((e) => {
    const detail = (e as PerformanceEntry & { detail?: { kind: number; flags: number } }).detail;
    return detail && detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR && (detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0;
  }).length;
}

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
