import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { resolveCommit } from '../../src/ci/ci-deploy.ts';
import { CI_USAGE, parseCiOptions } from '../../src/ci/ci-options.ts';
import { BuilderError } from '../../src/errors.ts';

const SHA = '0123456789abcdef0123456789abcdef01234567';

t.test('ci options', async (t) => {
  t.test('should read the environment, with the command line winning', async (t) => {
    const env = { FOLIO_API_URL: 'https://api.example.com/v1/', FOLIO_API_KEY: ' svc_key ', FOLIO_PROJECT_ID: 'p-env', GITHUB_WORKSPACE: '/ws', GITHUB_SHA: SHA.toUpperCase() };
    t.same(parseCiOptions([], env), { apiUrl: 'https://api.example.com', apiKey: 'svc_key', projectId: 'p-env', dir: '/ws', fallbackCommit: SHA });
    t.same(parseCiOptions(['--project', 'p-arg', '--dir', 'site', '--api-url', 'http://127.0.0.1:4000', '--commit', SHA], env),
      { apiUrl: 'http://127.0.0.1:4000', apiKey: 'svc_key', projectId: 'p-arg', dir: path.resolve('site'), commit: SHA, fallbackCommit: SHA });
  });

  t.test('should list every problem, one per line, as a user error', async (t) => {
    const err = t.throws(() => parseCiOptions(['--commit', 'abc'], { FOLIO_API_URL: 'ftp://x' })) as BuilderError;
    t.same([err.kind, err.code], ['user', 'invalid_options']);
    t.equal(err.message, [
      'FOLIO_API_URL: Unexpected "ftp://x"; expected an http(s) URL',
      'FOLIO_API_KEY: Required; expected an API key with the deployments:trigger scope',
      '--project: Required; expected the project id (or FOLIO_PROJECT_ID)',
      '--commit: Unexpected "abc"; expected a full 40-character commit id',
      CI_USAGE,
    ].join('\n'));
    const unknown = t.throws(() => parseCiOptions(['--api-key', 'svc_x'], {})) as BuilderError;
    t.equal(unknown.message, `Unknown option '--api-key'\n${CI_USAGE}`, 'no --api-key flag: keys stay out of process lists');
  });

  t.test('should take the commit from the checkout, else GITHUB_SHA', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-ci-'));
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
    const base = { apiUrl: 'http://x', apiKey: 'k', projectId: 'p', dir };
    await t.rejects(resolveCommit(base), { code: 'invalid_checkout', message: `${dir}: Unexpected folder that is not a Git checkout; expected one, or --commit / GITHUB_SHA` });
    t.equal(await resolveCommit({ ...base, fallbackCommit: SHA }), SHA);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com' } }).toString().trim();
    git('init', '-q', '-b', 'main');
    await t.rejects(resolveCommit({ ...base, fallbackCommit: SHA }), { code: 'invalid_checkout', message: `${dir}: Unexpected repository without a commit at HEAD; expected a checked-out commit` });
    fs.writeFileSync(path.join(dir, 'docs.json'), '{"name":"x"}');
    git('add', '-A');
    git('commit', '-q', '-m', 'first');
    const head = git('rev-parse', 'HEAD');
    t.equal(await resolveCommit({ ...base, fallbackCommit: SHA }), head, 'the checkout wins over GITHUB_SHA');
    t.equal(await resolveCommit({ ...base, commit: SHA }), SHA, '--commit wins over both');
  });
});
