import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { commitFiles, repoFromFolder, tempDir } from '../helpers/git-repo.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/sample-repo', import.meta.url));

interface Run { code: number | null; stdout: string; stderr: string }

/** `npm run -s <args>` from the repository root, as a person types it. */
function npmRun(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', ...args], { cwd: root, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

t.test('build-site as typed', async (t) => {
  // Its own cache: the first run bundles the builder, as after a checkout or an edit.
  const cache = tempDir('folio-cli-cache-');
  const { dir } = repoFromFolder(fixture, path.join(tempDir(), 'sample'));
  const out = tempDir();
  t.teardown(() => fs.rmSync(cache, { recursive: true, force: true }));

  await t.test('should build the site from the bundle, its build child included', async (t) => {
    const run = await npmRun(['build-site', '--', dir, '--out', out], { FOLIO_CLI_CACHE_DIR: cache });
    t.equal(run.code, 0, run.stderr);
    t.match(run.stdout, /^commit [0-9a-f]{12}: 3 pages, 3 ok, 0 failed; 3 compiled; \d+ uploaded, 0 deleted\n/);
    t.equal(fs.readFileSync(path.join(out, 'index.md'), 'utf8'), '# Welcome\n\nHello from the sample site.\n');
    t.match(fs.readFileSync(path.join(out, 'index.html'), 'utf8'), /<h1[^>]*>Welcome<\/h1>[\s\S]*<p>Hello from the sample site\.<\/p>/);
    for (const key of ['llms.txt', 'sitemap.xml', '_pagefind/shards.json', 'favicon.svg']) t.ok(fs.existsSync(path.join(out, key)), key);
    // The parent and its build child ran from one bundle: nothing went through tsx, nothing was bundled twice.
    const folders = fs.readdirSync(cache);
    t.equal(folders.length, 1);
    t.match(folders[0], /^cli-[0-9a-f]{8}$/);
    t.equal(fs.readdirSync(path.join(cache, folders[0])).filter((f) => f !== 'manifest.json').length, 1);
  });

  await t.test('should compile only the edited page on the next run', async (t) => {
    commitFiles(dir, { 'docs/index.mdx': '---\ntitle: Welcome\norder: 1\n---\n\n# Welcome\n\nHello again.\n' });
    const run = await npmRun(['build-site', '--', dir, '--out', out], { FOLIO_CLI_CACHE_DIR: cache });
    t.equal(run.code, 0, run.stderr);
    t.match(run.stdout, /^commit [0-9a-f]{12}: 3 pages, 3 ok, 0 failed; 1 compiled;/);
    t.equal(fs.readFileSync(path.join(out, 'index.md'), 'utf8'), '# Welcome\n\nHello again.\n');
  });

  await t.test('should say what is wrong and exit 1 on a user error', async (t) => {
    const run = await npmRun(['build-site', '--', dir], { FOLIO_CLI_CACHE_DIR: cache });
    t.same(run, { code: 1, stdout: 'usage: build-site <git-url|dir> --out <dir> [--branch <b>] [--token <t>] [--site-url <u>] [--root <folder>]\n', stderr: '' });
  });
});
