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
    t.same(lines, ['usage: build-site <git-url|dir> --out <dir> [--branch <b>] [--token <t>] [--site-url <u>]']);
  });

  await t.test('should build a remote with a token into --out and print the summary', async (t) => {
    const out = tempDir();
    const lines: string[] = [];
    t.equal(await main([`${server.url}/sample`, '--out', out, '--token', 'tok'], (l) => lines.push(l)), 0);
    t.match(lines[0], /^commit [0-9a-f]{12}: 3 pages, 3 ok, 0 failed; 3 compiled; \d+ uploaded, 0 deleted\ntimings \(ms\): clone \d+/);
    t.equal(fs.readFileSync(path.join(out, 'favicon.svg'), 'utf8'), '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
    t.ok(fs.existsSync(path.join(out, '_folio/cache/manifest.json.gz')));
    t.equal(fs.readFileSync(path.join(out, 'robots.txt'), 'utf8'), 'User-agent: *\nAllow: /\n\nSitemap: http://localhost/sitemap.xml\n');
    t.equal(fs.readFileSync(path.join(out, 'index.md'), 'utf8'), '# Welcome\n\nHello from the sample site.\n');
    for (const key of ['llms.txt', 'llms-full.txt', 'rss.xml', 'index/rss.xml', 'sitemap.xml', '_redirects.json', '_pagefind/shards.json']) t.ok(fs.existsSync(path.join(out, key)), key);
  });

  await t.test('should exit 1 with the message on a user error', async (t) => {
    commitFiles(dir, { 'docs.json': '{ "name": 1 }\n' });
    const lines: string[] = [];
    t.equal(await main([dir, '--out', tempDir()], (l) => lines.push(l)), 1);
    t.match(lines[0], /^error: docs\.json/);
  });
});
