import path from 'node:path';
import t from 'tap';
import { openDraftPreview } from '../../src/preview/draft-preview.ts';
import { openDraftTree } from '../../src/preview/draft-tree.ts';
import { startPreviewProcess } from '../../src/preview/preview-launch.ts';
import { openGitSnapshot } from '../../src/git/repo-snapshot.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const files = {
  'docs.json': JSON.stringify({ name: 'Acme', theme: 'mint', navigation: { pages: ['index', 'guide'] } }),
  'index.mdx': '---\ntitle: Home\n---\n\nWelcome. See [the guide](/guide).\n',
  'guide.mdx': '---\ntitle: Guide\n---\n\nFirst text.\n',
};
const BASE = '/editor-preview/~';

t.test('draft tree', async (t) => {
  t.test('should lay drafts over the commit and report only paths whose blob changed', async (t) => {
    const dir = tempDir();
    const commit = makeRepo(dir, files);
    const base = await openGitSnapshot(dir, commit);
    const tree = openDraftTree(base, [['guide.mdx', Buffer.from('Draft.\n')]]);
    t.equal(Buffer.from(await tree.read('guide.mdx')).toString(), 'Draft.\n');
    t.not(tree.files.get('guide.mdx'), base.files.get('guide.mdx'));
    tree.set('index.mdx', null);
    tree.set('new.mdx', Buffer.from('# New\n'));
    tree.set('docs.json', Buffer.from(files['docs.json']));
    t.same(await tree.refresh(['index.mdx', 'new.mdx', 'docs.json']), ['index.mdx', 'new.mdx']);
    t.notOk(tree.files.has('index.mdx'));
    await t.rejects(tree.read('index.mdx'), { code: 'file_missing' });
    tree.unset('guide.mdx');
    t.same(await tree.refresh(['guide.mdx']), ['guide.mdx']);
    t.equal(tree.files.get('guide.mdx'), base.files.get('guide.mdx'));
  });
});

t.test('draft preview', async (t) => {
  t.test('should build the commit with its drafts under the base path, and rebuild one page per update', async (t) => {
    const dir = tempDir();
    const commit = makeRepo(dir, files);
    const p = await openDraftPreview({ gitDir: path.join(dir, '.git'), commit, drafts: [['index.mdx', '---\ntitle: Home\n---\n\nDraft home. See [the guide](/guide).\n']], storeDir: tempDir(), siteUrl: 'http://127.0.0.1:1', basePath: BASE });
    t.teardown(() => p.close());
    await p.ready;
    const html = async (key: string) => Buffer.from((await p.store.get(key))!).toString('utf8');
    t.match(await html('index.html'), /Draft home/);
    t.match(await html('index.html'), /href="\/editor-preview\/~\/guide"/);
    const r = await p.update('guide.mdx', '---\ntitle: Guide\n---\n\nSecond text.\n');
    t.same(r, { urlPath: '/guide', key: 'guide/index.html', problems: [] });
    t.match(await html('guide/index.html'), /Second text/);
  });

  t.test('should give a broken page\'s line and column and keep its last good HTML', async (t) => {
    const dir = tempDir();
    const commit = makeRepo(dir, files);
    const p = await openDraftPreview({ gitDir: path.join(dir, '.git'), commit, storeDir: tempDir(), siteUrl: 'http://127.0.0.1:1', basePath: BASE });
    t.teardown(() => p.close());
    await p.ready;
    const r = await p.update('guide.mdx', '---\ntitle: Guide\n---\n\nBroken <Foo text.\n');
    t.equal(r.problems.length, 1);
    t.match(r.problems[0], { file: 'guide.mdx', line: 5, column: Number });
    t.match(Buffer.from((await p.store.get('guide/index.html'))!).toString(), /First text/);
    // An error while the page runs (in the sandbox) comes back positioned too.
    const thrown = await p.update('guide.mdx', '---\ntitle: Guide\n---\n\nText.\n\n{(() => { throw new Error("boom") })()}\n');
    t.same(thrown.problems, [{ file: 'guide.mdx', line: 7, column: 1, message: 'Unexpected error while running the page: boom' }]);
    const fixed = await p.update('guide.mdx', '---\ntitle: Guide\n---\n\nFixed.\n');
    t.same(fixed.problems, []);
  });

  t.test('should build a new page and a deletion', async (t) => {
    const dir = tempDir();
    const commit = makeRepo(dir, files);
    const storeDir = tempDir();
    const p = await openDraftPreview({ gitDir: path.join(dir, '.git'), commit, storeDir, siteUrl: 'http://127.0.0.1:1', basePath: BASE });
    t.teardown(() => p.close());
    await p.ready;
    const r = await p.update('new.mdx', '# New page\n\nHello.\n');
    t.equal(r.urlPath, '/new');
    t.match(Buffer.from((await createLocalDirStore(storeDir).get('new/index.html'))!).toString(), /Hello/);
    const gone = await p.update('new.mdx', null);
    t.equal(gone.urlPath, undefined);
  });
});

t.test('preview process', async (t) => {
  t.test('should build in a process of its own and answer updates and events', async (t) => {
    const dir = tempDir();
    const commit = makeRepo(dir, files);
    const storeDir = tempDir();
    const proc = startPreviewProcess({ gitDir: path.join(dir, '.git'), commit, storeDir, siteUrl: 'http://127.0.0.1:1', basePath: BASE });
    t.teardown(() => proc.close());
    t.not(proc.pid, process.pid);
    await proc.ready;
    const events: string[] = [];
    proc.subscribe((e) => events.push(e.type === 'update' ? `update ${e.keys.join(',')}` : e.type));
    const r = await proc.update('guide.mdx', '---\ntitle: Guide\n---\n\nFrom the process.\n');
    t.same(r, { urlPath: '/guide', key: 'guide/index.html', problems: [] });
    t.match(Buffer.from((await createLocalDirStore(storeDir).get('guide/index.html'))!).toString(), /From the process/);
    t.ok(events.includes('update guide/index.html'));
    t.ok(proc.memoryBytes() > 10_000_000, 'counts the process and its sandboxes');
    await proc.close();
    t.equal(proc.memoryBytes(), 0);
    await t.rejects(proc.update('guide.mdx', 'x'), /ended/);
  });
});
