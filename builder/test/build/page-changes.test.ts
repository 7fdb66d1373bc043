import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { build, UPSERT_BATCH, type PageChanges, type PageUpsert } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { commitFiles, makeRepo, tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const page = (title: string, body = 'Text.') => `---\ntitle: ${title}\n---\n\n${body}\n`;

/** What `onPages` is given: every batch `upserted(size)` yields, and the removed pages. */
async function reported(changes: PageChanges, size?: number): Promise<{ batches: PageUpsert[][]; removed: PageChanges['removed'] }> {
  const batches: PageUpsert[][] = [];
  for await (const batch of changes.upserted(size)) batches.push(batch);
  return { batches, removed: changes.removed };
}

t.test('page changes reported to the pages API', async (t) => {
  t.equal(UPSERT_BATCH, 200, 'the pages API batch');
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const repo = tempDir();
  const files: Record<string, string> = { 'docs.json': '{ "name": "Changes" }\n' };
  for (let i = 0; i < 5; i++) files[`docs/p${i}.mdx`] = page(`Page ${i}`);
  makeRepo(repo, files);
  const store = createLocalDirStore(tempDir());
  let seen: Awaited<ReturnType<typeof reported>> | undefined;
  const options = (size?: number) => ({
    source: { kind: 'dir' as const, dir: repo }, store, siteUrl: 'https://changes.example', compiler, year: 2025,
    onPages: async (changes: PageChanges) => { seen = await reported(changes, size); },
  });

  await t.test('should yield every page of a cold build, a batch of the size asked at a time, with its source', async (t) => {
    await build(options(2));
    t.same(seen!.batches.map((b) => b.length), [2, 2, 1]);
    const all = seen!.batches.flat();
    t.same(all.map((u) => u.page.urlPath).sort(), ['/p0', '/p1', '/p2', '/p3', '/p4']);
    t.equal(all.find((u) => u.page.urlPath === '/p3')!.source, files['docs/p3.mdx'], 'the page file as committed');
    t.ok(all.every((u) => u.version === 'latest' && u.page.bodyHtml.includes('Text.')));
    t.same(seen!.removed, []);
  });

  await t.test('should yield only the edited page, and list a deleted one as removed', async (t) => {
    fs.rmSync(path.join(repo, 'docs/p4.mdx'));
    commitFiles(repo, { 'docs/p1.mdx': page('Page 1', 'Edited.') });
    await build(options());
    t.same(seen!.batches.map((b) => b.map((u) => u.page.urlPath)), [['/p1']]);
    t.same(seen!.removed, [{ sourcePath: 'docs/p4.mdx', urlPath: '/p4' }]);
  });

  await t.test('should yield no batch when no page changed', async (t) => {
    await build(options());
    t.same(seen!.batches, []);
    t.same(seen!.removed, []);
  });
});
