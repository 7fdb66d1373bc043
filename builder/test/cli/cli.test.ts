import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { main } from '../../src/cli.ts';
import { startGitHttpServer } from '../helpers/git-http-server.ts';
import { commitFiles, repoFromFolder, tempDir } from '../helpers/git-repo.ts';

const fixture = fileURLToPath(new URL('../fixtures/sample-repo', import.meta.url));

t.test('cli', async (t) => {
  const root = tempDir();
  const { dir } = repoFromFolder(fixture, path.join(root, 'sample'));
  const server = await startGitHttpServer({ root, token: 'tok' });
  t.teardown(() => server.close());

  await t.test('should print usage and exit 1 without --out', async (t) => {
    const lines: string[] = [];
    t.equal(await main([dir], (l) => lines.push(l)), 1);
    t.same(lines, ['usage: build-site <git-url|dir> --out <dir> [--branch <b>] [--token <t>] [--site-url <u>] [--root <folder>]']);
  });

  await t.test('should build a remote with a token into --out and print the summary', async (t) => {
    const out = tempDir();
    const lines: string[] = [];
    t.equal(await main([`${server.url}/sample`, '--out', out, '--token', 'tok'], (l) => lines.push(l)), 0);
    t.match(lines[0], /^commit [0-9a-f]{12}: 3 pages, 3 ok, 0 failed; 3 compiled; \d+ uploaded, 0 deleted\ntimings \(ms\): clone \d+/);
    // Two pages are Markdown and built-in components only; the third imports a snippet, so it needs Vite.
    t.match(lines[0], /\nstatic path: 2 of 3 compiled pages \(67%\)$/);
    t.equal(fs.readFileSync(path.join(out, 'favicon.svg'), 'utf8'), '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
    t.ok(fs.existsSync(path.join(out, '_folio/cache/manifest.json.gz')));
    t.equal(fs.readFileSync(path.join(out, 'robots.txt'), 'utf8'), 'User-agent: *\nAllow: /\n\nSitemap: http://localhost/sitemap.xml\n');
    t.equal(fs.readFileSync(path.join(out, 'index.md'), 'utf8'), '# Welcome\n\nHello from the sample site.\n');
    for (const key of ['llms.txt', 'llms-full.txt', 'rss.xml', 'index/rss.xml', 'sitemap.xml', '_redirects.json', '_pagefind/shards.json']) t.ok(fs.existsSync(path.join(out, key)), key);
  });

  await t.test('should print broken links as warning lines, and exit 1 listing them when docs.json makes them errors', async (t) => {
    const links = path.join(tempDir(), 'links');
    fs.cpSync(fileURLToPath(new URL('../fixtures/broken-links', import.meta.url)), links, { recursive: true });
    const lines: string[] = [];
    t.equal(await main([links, '--out', tempDir()], (l) => lines.push(l)), 0);
    const warnings = lines.join('\n').split('\n').filter((l) => l.startsWith('  warning: '));
    t.same(warnings, [
      '  warning: docs/guides/install.mdx:7:55: Unexpected link to /nowhere; expected a page, a file of the site or a redirect source',
      '  warning: docs/index.mdx:20:1: Unexpected link to /guides/uninstall; expected a page, a file of the site or a redirect source',
      '  warning: docs/index.mdx:20:39: Unexpected anchor #last-steps; expected the id of a heading or element on /guides/install',
      '  warning: docs/index.mdx:22:1: Unexpected link to /gone; expected a page, a file of the site or a redirect source',
      '  warning: docs/index.mdx:26:1: Unexpected link to /also-gone; expected a page, a file of the site or a redirect source',
    ]);
    fs.writeFileSync(path.join(links, 'docs.json'), JSON.stringify({ name: 'Links', brokenLinks: 'error', redirects: [{ source: '/old-install', destination: '/guides/install' }] }));
    const failed: string[] = [];
    t.equal(await main([links, '--out', tempDir()], (l) => failed.push(l)), 1);
    t.same(failed[0].split('\n').slice(0, 2), ['error: 5 broken links; docs.json sets brokenLinks to "error":', warnings[0].replace('  warning: ', '')]);
  });

  await t.test('should read the whole reply of a build whose warnings outgrow a pipe', async (t) => {
    // 2,000 broken links make a reply of about 250 KB: the build process must not exit before it is written.
    const many = path.join(tempDir(), 'many');
    fs.mkdirSync(path.join(many, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(many, 'docs.json'), JSON.stringify({ name: 'Many' }));
    fs.writeFileSync(path.join(many, 'docs/index.mdx'), `---\ntitle: Many\n---\n\n${Array.from({ length: 2000 }, (_, i) => `[gone ${i}](/gone-${i})`).join('\n\n')}\n`);
    const lines: string[] = [];
    t.equal(await main([many, '--out', tempDir()], (l) => lines.push(l)), 0);
    const printed = lines.join('\n').split('\n');
    const warnings = printed.filter((l) => l.startsWith('  warning: '));
    // Every warning reached the parent (the count says so); the summary prints the first 100.
    t.equal(warnings.length, 100);
    t.equal(warnings[99], '  warning: docs/index.mdx:203:1: Unexpected link to /gone-99; expected a page, a file of the site or a redirect source');
    t.equal(printed[printed.indexOf(warnings[99]) + 1], '  …and 1,900 more warnings');
  });

  await t.test('should exit 1 with the message on a user error', async (t) => {
    commitFiles(dir, { 'docs.json': '{ "name": 1 }\n' });
    const lines: string[] = [];
    t.equal(await main([dir, '--out', tempDir()], (l) => lines.push(l)), 1);
    t.match(lines[0], /^error: docs\.json/);
  });
});
