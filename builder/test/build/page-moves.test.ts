import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { build } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { commitFiles, gitIn, makeRepo, tempDir } from '../helpers/git-repo.ts';

const setup = '---\ntitle: Setup\n---\n\n' + Array.from({ length: 12 }, (_, i) => `Step ${i + 1} of setting things up.`).join('\n\n') + '\n';

t.test('moved pages keep their links across syncs of a real Git repository', async (t) => {
  const root = tempDir('folio-moves-');
  const repo = path.join(root, 'repo');
  const out = path.join(root, 'out');
  const compiler = await createCompiler();
  t.teardown(async () => { await compiler.close(); fs.rmSync(root, { recursive: true, force: true }); });
  const store = createLocalDirStore(out);
  const sync = () => build({ source: { kind: 'dir', dir: repo }, store, siteUrl: 'https://docs.test', compiler });
  const redirects = () => JSON.parse(fs.readFileSync(path.join(out, '_redirects.json'), 'utf8'));
  makeRepo(repo, {
    'docs.json': JSON.stringify({ name: 'Moves' }),
    'docs/index.mdx': '---\ntitle: Home\n---\n\nHi.\n',
    'docs/guides/install.mdx': '---\ntitle: Install\n---\n\nRun the installer.\n',
    'docs/guides/setup.mdx': setup,
  });
  const first = await sync();
  t.equal(first.moved, undefined);

  await t.test('should redirect the old URLs of pages renamed as they are and renamed with an edit', async (t) => {
    gitIn(repo, 'mv', 'docs/guides/install.mdx', 'docs/guides/installation.mdx');
    gitIn(repo, 'mv', 'docs/guides/setup.mdx', 'docs/guides/configure.mdx');
    commitFiles(repo, { 'docs/guides/configure.mdx': setup.replace('title: Setup', 'title: Configure').replace('Step 3 of', 'Step three of') }, 'move pages');
    const result = await sync();
    t.same(result.moved, [{ from: '/guides/setup', to: '/guides/configure' }, { from: '/guides/install', to: '/guides/installation' }]);
    t.same(redirects(), [
      { source: '/guides/install', destination: '/guides/installation', status: 308 },
      { source: '/guides/setup', destination: '/guides/configure', status: 308 },
    ]);
  });

  await t.test('should keep the redirects through later syncs', async (t) => {
    commitFiles(repo, { 'docs/index.mdx': '---\ntitle: Home\n---\n\nHello again.\n' }, 'edit home');
    const result = await sync();
    t.equal(result.moved, undefined, 'nothing moved this time');
    t.same(redirects().map((r: { source: string }) => r.source), ['/guides/install', '/guides/setup']);
  });

  await t.test('should send every older URL to the latest one when a page moves again', async (t) => {
    gitIn(repo, 'mv', 'docs/guides/installation.mdx', 'docs/start.mdx');
    commitFiles(repo, {}, 'move again');
    const result = await sync();
    t.same(result.moved, [{ from: '/guides/installation', to: '/start' }]);
    t.same(redirects(), [
      { source: '/guides/install', destination: '/start', status: 308 },
      { source: '/guides/installation', destination: '/start', status: 308 },
      { source: '/guides/setup', destination: '/guides/configure', status: 308 },
    ]);
  });

  await t.test('should let a new page at the old URL and an explicit redirect win', async (t) => {
    commitFiles(repo, {
      'docs/guides/install.mdx': '---\ntitle: Install (new)\n---\n\nA new page here.\n',
      'docs.json': JSON.stringify({ name: 'Moves', redirects: [{ source: '/guides/setup', destination: '/start', permanent: false }] }),
    }, 'new page at the old path');
    await sync();
    t.same(redirects(), [
      { source: '/guides/setup', destination: '/start', status: 307 },
      { source: '/guides/installation', destination: '/start', status: 308 },
    ]);
  });

  await t.test('should drop a redirect whose page is gone', async (t) => {
    commitFiles(repo, { 'docs/start.mdx': null, 'docs.json': JSON.stringify({ name: 'Moves' }) }, 'remove the page');
    await sync();
    t.same(redirects(), []);
  });
});
