import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { build } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { STATE_PREFIX } from '../../src/state/manifest.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { REDIRECTS_KEY } from '../../src/outputs/redirects-manifest.ts';
import { PageMemory } from '../../src/state/page-bodies.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { commitFiles, makeRepo, tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const page = (title: string, body: string, extra = '') => `---\ntitle: ${title}\ndescription: About ${title}.\n${extra}---\n\n# ${title}\n\n${body}\n`;

/** Enough pages for several search shards (`searchPerShard: 2`), a snippet, updates and a public file. */
const SITE = {
  'docs.json': JSON.stringify({ name: 'Same', seo: { description: 'Incremental equals cold.' } }),
  'docs/index.mdx': page('Home', 'Welcome.\n\nimport Note from \'/snippets/note.mdx\';\n\n<Note />'),
  'docs/guides/install.mdx': page('Install', 'Run `npm install`.\n\n```bash title="Install"\nnpm install folio\n```', 'order: 1\n'),
  'docs/guides/usage.md': page('Usage', 'Use it.', 'order: 2\n'),
  'docs/guides/deep/config.mdx': page('Config', '<Note>Configure it.</Note>\n\n| a | b |\n| - | - |\n| 1 | 2 |'),
  'docs/changelog.mdx': page('Changelog', '<Update label="v1" description="First" date="2025-01-01">\n  First release.\n</Update>'),
  'docs/reference/api.mdx': page('API', '<ParamField path="id" type="string">The id.</ParamField>'),
  'docs/reference/errors.mdx': page('Errors', '<Card title="Help" href="/guides/install">Read this.</Card>'),
  'snippets/note.mdx': 'A shared **note**.\n',
  'public/robots.txt': 'User-agent: custom\n',
};

/** Every published file (the builder's state left out) → its bytes. */
function published(root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const key = path.relative(root, path.join(e.parentPath, e.name));
    if (!key.startsWith(STATE_PREFIX)) files.set(key, fs.readFileSync(path.join(root, key)).toString('base64'));
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

t.test('incremental builds', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const repo = tempDir();
  makeRepo(repo, SITE);
  const out = tempDir();
  const pageMemory = new PageMemory();
  const options = (store: string, memory?: PageMemory) => ({
    source: { kind: 'dir' as const, dir: repo }, store: createLocalDirStore(store), siteUrl: 'https://same.example', compiler, year: 2025,
    // Without the search overlay, so the re-indexed shards can be compared with a cold build's
    // (with it, an edit is indexed apart; search-overlay-browser.test.ts checks what readers find).
    searchPerShard: 2, searchOverlay: 0, ...(memory ? { pageMemory: memory } : {}),
  });
  const first = await build(options(out, pageMemory));
  t.equal(first.pagesFailed, 0);

  /**
   * Builds the current commit cold into a new store and compares every published file. The one
   * file history changes is the redirects manifest: a cold build cannot know which pages were
   * renamed, so the incremental one has, in addition, a 308 for each (`moved`: old → new path).
   */
  const sameAsCold = async (t: Test, label: string, moved: Record<string, string> = {}) => {
    const cold = tempDir();
    const res = await build(options(cold));
    t.equal(res.compiled, res.pagesTotal, `${label}: the cold build compiles every page`);
    const a = published(out);
    const b = published(cold);
    t.same([...a.keys()], [...b.keys()], `${label}: the same files`);
    const redirects = (files: Map<string, string>) => JSON.parse(Buffer.from(files.get(REDIRECTS_KEY)!, 'base64').toString('utf8'));
    t.same(redirects(a), [...redirects(b), ...Object.entries(moved).map(([source, destination]) => ({ source, destination, status: 308 }))], `${label}: the redirects, moved pages added`);
    t.same([...a.keys()].filter((key) => key !== REDIRECTS_KEY && a.get(key) !== b.get(key)), [], `${label}: the same bytes`);
  };

  await t.test('should publish what a cold build publishes after a one-page edit', async (t) => {
    commitFiles(repo, { 'docs/guides/usage.md': page('Usage', 'Use it twice.', 'order: 2\n') });
    const res = await build(options(out, pageMemory));
    t.equal(res.compiled, 1);
    await sameAsCold(t, 'edit');
  });

  await t.test('should publish what a cold build publishes after a snippet edit, a rename, an added and a deleted page', async (t) => {
    fs.renameSync(path.join(repo, 'docs/reference/errors.mdx'), path.join(repo, 'docs/reference/failures.mdx'));
    commitFiles(repo, {
      'snippets/note.mdx': 'A shared **note**, edited.\n',
      'docs/guides/new.mdx': page('New', 'A new page.'),
      'docs/reference/api.mdx': null,
    });
    const res = await build(options(out, pageMemory));
    t.equal(res.compiled, 2, 'the page importing the snippet and the new page');
    await sameAsCold(t, 'changes', { '/reference/errors': '/reference/failures' });
  });

  await t.test('should publish what a cold build publishes after a configuration change', async (t) => {
    commitFiles(repo, { 'docs.json': JSON.stringify({ name: 'Same Renamed', seo: { description: 'Renamed.' } }) });
    const res = await build(options(out, pageMemory));
    t.equal(res.compiled, 0);
    await sameAsCold(t, 'configuration', { '/reference/errors': '/reference/failures' });
  });

  await t.test('should publish the same files when Pagefind indexes after the compile step', async (t) => {
    // A build of this many pages to compile or more defers its indexing (every build here).
    const late = { searchAfterCompileFrom: 1 };
    const deferred = tempDir();
    const cold = await build({ ...options(deferred), ...late });
    t.equal(cold.compiled, cold.pagesTotal);
    const early = tempDir();
    await build(options(early));
    const [a, b] = [published(deferred), published(early)];
    t.same([...a.keys()], [...b.keys()], 'cold: the same files');
    t.same([...a.keys()].filter((key) => a.get(key) !== b.get(key)), [], 'cold: the same bytes');

    // An edit: its shard's unchanged pages wait on disk with the edited one.
    commitFiles(repo, { 'docs/guides/install.mdx': page('Install', 'Run `npm install` once.', 'order: 1\n') });
    const edit = await build({ ...options(deferred), ...late });
    t.equal(edit.compiled, 1);
    const again = tempDir();
    await build(options(again));
    const [c, d] = [published(deferred), published(again)];
    t.same([...c.keys()], [...d.keys()], 'edit: the same files as a cold build');
    t.same([...c.keys()].filter((key) => c.get(key) !== d.get(key)), [], 'edit: the same bytes');
  });
});
