import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { build } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { BuilderError } from '../../src/errors.ts';
import { LinkChecker } from '../../src/links/link-check.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir, writeFiles } from '../helpers/git-repo.ts';

const fixture = fileURLToPath(new URL('../fixtures/broken-links', import.meta.url));

t.teardown(closePagefind);

/** The fixture copied to a temporary folder, so a test may edit it. */
function copyFixture(): string {
  const dir = tempDir();
  fs.cpSync(fixture, dir, { recursive: true });
  return dir;
}

const BROKEN = [
  'docs/guides/install.mdx:7:55: Unexpected link to /nowhere; expected a page, a file of the site or a redirect source',
  'docs/index.mdx:20:1: Unexpected link to /guides/uninstall; expected a page, a file of the site or a redirect source',
  'docs/index.mdx:20:39: Unexpected anchor #last-steps; expected the id of a heading or element on /guides/install',
  'docs/index.mdx:22:1: Unexpected link to /gone; expected a page, a file of the site or a redirect source',
  'docs/index.mdx:26:1: Unexpected link to /also-gone; expected a page, a file of the site or a redirect source',
];

t.test('site-links', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const siteUrl = 'https://links.example';

  t.test('should report every broken link and missing anchor of the fixture as a warning, and nothing else', async (t) => {
    const result = await build({ source: { kind: 'dir', dir: fixture }, store: createLocalDirStore(tempDir()), siteUrl, compiler });
    t.equal(result.pagesFailed, 0);
    t.same(result.warnings, BROKEN);
    t.equal(result.linksChecked, 21);
  });

  t.test('should flag missing images written from the docs root, and report a target missed many times once with the count', async (t) => {
    const dir = tempDir();
    writeFiles(dir, {
      'docs.json': JSON.stringify({ name: 'Pics', navigation: { pages: ['index', 'other'] } }),
      'index.mdx': '# Home\n\n![Logo](/images/logo.png)\n\n![Gone](/images/gone.png)\n\n<img src="/images/gone.png" alt="again" />\n\n<img src="../relative.png" alt="relative, not judged" />\n\n[x](/nowhere) [y](/nowhere)\n',
      'other.mdx': '# Other\n\n<img src="/images/gone.png" alt="third" />\n',
      'images/logo.png': Buffer.from('89504e470d0a1a0a', 'hex'),
    });
    const result = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(tempDir()), siteUrl, compiler });
    t.same(result.warnings, [
      'index.mdx:5:1: Unexpected link to /images/gone.png; expected a page, a file of the site or a redirect source (and 2 more times, in 2 files)',
      'index.mdx:11:1: Unexpected link to /nowhere; expected a page, a file of the site or a redirect source (and 1 more time)',
    ]);
  });

  t.test('should fail the build, publishing nothing, when docs.json sets brokenLinks to error', async (t) => {
    const dir = copyFixture();
    const config = JSON.parse(fs.readFileSync(path.join(dir, 'docs.json'), 'utf8'));
    fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({ ...config, brokenLinks: 'error' }));
    const root = tempDir();
    const err = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(root), siteUrl, compiler }).catch((e: unknown) => e);
    t.ok(err instanceof BuilderError);
    t.same({ kind: (err as BuilderError).kind, code: (err as BuilderError).code, message: (err as BuilderError).message }, {
      kind: 'user', code: 'broken_links', message: ['5 broken links; docs.json sets brokenLinks to "error":', ...BROKEN].join('\n'),
    });
    t.notOk(fs.existsSync(path.join(root, 'index.html')), 'no page was published');
  });

  t.test('should skip the check when docs.json sets brokenLinks to off', async (t) => {
    const dir = copyFixture();
    const config = JSON.parse(fs.readFileSync(path.join(dir, 'docs.json'), 'utf8'));
    fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({ ...config, brokenLinks: 'off' }));
    const result = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(tempDir()), siteUrl, compiler });
    t.same(result.warnings, []);
    t.equal(result.linksChecked, 0);
  });

  t.test('should re-check only the links of an edited page and the links to it', async (t) => {
    const dir = copyFixture();
    const store = createLocalDirStore(tempDir());
    const linkChecker = new LinkChecker();
    const first = await build({ source: { kind: 'dir', dir }, store, siteUrl, compiler, linkChecker });
    t.equal(first.linksChecked, 21);
    // The heading `last-steps` appears on install: its ids change, so the two pages linking to it are re-checked with it.
    const install = path.join(dir, 'docs/guides/install.mdx');
    fs.appendFileSync(install, '\n## Last steps\n\nDone.\n');
    const second = await build({ source: { kind: 'dir', dir }, store, siteUrl, compiler, linkChecker });
    t.equal(second.compiled, 1);
    t.equal(second.linksChecked, 3 + 17 + 1, 'install (3), index (17) and the release page (1) that link to it');
    t.same(second.warnings, BROKEN.filter((line) => !line.includes('#last-steps')));
    // A text edit that keeps the ids re-checks the edited page alone.
    fs.appendFileSync(install, '\nMore text.\n');
    const third = await build({ source: { kind: 'dir', dir }, store, siteUrl, compiler, linkChecker });
    t.equal(third.linksChecked, 3);
  });
});
