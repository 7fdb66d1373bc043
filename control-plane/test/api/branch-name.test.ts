import os from 'node:os';
import t from 'tap';
import { BRANCH_PATTERN, branchProblem, MAX_BRANCH_LENGTH } from '../../src/api/branch-name.ts';
import { runGit } from '../../src/git/git-cli.ts';
import { startTestApi } from '../helpers/api.ts';
import { envWithGithub, startGithubStandIn } from '../helpers/github-stand-in.ts';

const CHARS = 'spaces, control characters or ~ ^ : ? * [ \\ $ ` \' " ; & | < > ( )';
const REFUSED: [string, string][] = [
  ['', `Unexpected length 0; expected a Git branch name of 1-${MAX_BRANCH_LENGTH} characters`],
  ['b'.repeat(MAX_BRANCH_LENGTH + 1), `Unexpected length ${MAX_BRANCH_LENGTH + 1}; expected a Git branch name of 1-${MAX_BRANCH_LENGTH} characters`],
  ['-f', 'Unexpected leading "-"; expected a Git branch name (a leading "-" reads as a command-line option)'],
  ['HEAD', 'Unexpected "HEAD"; expected a Git branch name (HEAD names the current commit)'],
  ['@', 'Unexpected "@"; expected a Git branch name ("@" alone means HEAD)'],
  ['refs/heads/main', 'Unexpected "refs/" prefix; expected a Git branch name without it, e.g. main'],
  ['$(id)', `Unexpected "$"; expected a Git branch name without ${CHARS}`],
  ['a`id`', `Unexpected "\`"; expected a Git branch name without ${CHARS}`],
  ['main;rm', `Unexpected ";"; expected a Git branch name without ${CHARS}`],
  ['my branch', `Unexpected space; expected a Git branch name without ${CHARS}`],
  ['a\tb', `Unexpected control character U+0009; expected a Git branch name without ${CHARS}`],
  ['a\x7fb', `Unexpected control character U+007F; expected a Git branch name without ${CHARS}`],
  ['v1~1', `Unexpected "~"; expected a Git branch name without ${CHARS}`],
  ['a^', `Unexpected "^"; expected a Git branch name without ${CHARS}`],
  ['a:b', `Unexpected ":"; expected a Git branch name without ${CHARS}`],
  ['a?', `Unexpected "?"; expected a Git branch name without ${CHARS}`],
  ['a*', `Unexpected "*"; expected a Git branch name without ${CHARS}`],
  ['a[0]', `Unexpected "["; expected a Git branch name without ${CHARS}`],
  ['a\\b', `Unexpected "\\"; expected a Git branch name without ${CHARS}`],
  ['a..b', 'Unexpected ".."; expected a Git branch name'],
  ['a@{1}', 'Unexpected "@{"; expected a Git branch name'],
  ['/main', 'Unexpected empty path component ("/" at either end, or "//"); expected a Git branch name'],
  ['main/', 'Unexpected empty path component ("/" at either end, or "//"); expected a Git branch name'],
  ['a//b', 'Unexpected empty path component ("/" at either end, or "//"); expected a Git branch name'],
  ['main.', 'Unexpected trailing "."; expected a Git branch name'],
  ['.hidden', 'Unexpected component starting with "."; expected a Git branch name'],
  ['a/.b', 'Unexpected component starting with "."; expected a Git branch name'],
  ['main.lock', 'Unexpected component ending with ".lock"; expected a Git branch name'],
  ['a.lock/b', 'Unexpected component ending with ".lock"; expected a Git branch name'],
];
const ACCEPTED = ['main', 'release/v2.1', 'feature/JIRA-12_x', 'a@b', '@a', 'ü-docs', 'a.lock.b', 'fix#12', 'HEADS', 'x'.repeat(MAX_BRANCH_LENGTH)];
/** Folio's rules beyond Git's (see branch-name.ts). */
const folioOnly = (name: string) => name.length > MAX_BRANCH_LENGTH || name === '@' || name.startsWith('refs/') || /[$`'";&|<>()]/.test(name);

t.test('github_branch', async (t) => {
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const api = await startTestApi({ env: envWithGithub(gh) });
  t.teardown(() => api.close());
  const { key, orgId } = await api.tenant('enterprise');
  await gh.connect(api.cp.m, orgId, 'acme/docs');
  let n = 0;

  t.test('should refuse each broken rule with its exact message on create and on PATCH', async (t) => {
    const p = await api.project(key);
    for (const [name, message] of REFUSED) {
      const expected = [400, { error: 'invalid_request', message: `github_branch: ${message}` }];
      const created = await api.request('POST', '/projects', { key, body: { name: 'B', slug: `branch-bad-${++n}`, github_branch: name } });
      t.same([created.status, created.body], expected, `create ${JSON.stringify(name).slice(0, 30)}`);
      const patched = await api.request('PATCH', `/projects/${p.id}`, { key, body: { github_branch: name } });
      t.same([patched.status, patched.body], expected, `PATCH ${JSON.stringify(name).slice(0, 30)}`);
    }
    const typed = await api.request('PATCH', `/projects/${p.id}`, { key, body: { github_branch: 5 } });
    t.same(typed.body, { error: 'invalid_request', message: 'github_branch: Unexpected number; expected string' });
    t.equal(await api.cp.m.Project.countDocuments({ slug: /^branch-bad-/ }), 0, 'nothing created');
    t.equal((await api.request('GET', `/projects/${p.id}`, { key })).body.github_branch, 'main', 'nothing changed');
  });

  t.test('should accept and store valid names on create and on PATCH', async (t) => {
    const p = await api.project(key);
    for (const name of ACCEPTED) {
      const created = await api.request('POST', '/projects', { key, body: { name: 'B', slug: `branch-ok-${++n}`, github_repo: 'acme/docs', github_branch: name } });
      t.same([created.status, created.body.github_branch], [201, name], `create ${name.slice(0, 30)}`);
      const patched = await api.request('PATCH', `/projects/${p.id}`, { key, body: { github_branch: name } });
      t.same([patched.status, patched.body.github_branch], [200, name], `PATCH ${name.slice(0, 30)}`);
    }
  });

  t.test('should agree with git check-ref-format --branch, and the published pattern with the checks', async (t) => {
    const pattern = new RegExp(BRANCH_PATTERN);
    for (const name of [...REFUSED.map(([name]) => name), ...ACCEPTED]) {
      const ours = branchProblem(name) === undefined;
      t.equal(pattern.test(name), ours, `pattern on ${JSON.stringify(name).slice(0, 30)}`);
      if (name === '') continue; // git reads an empty --branch argument as "no name", not as a name
      const git = (await runGit(['check-ref-format', '--branch', name], { cwd: os.tmpdir(), allowFail: true })).code === 0;
      t.equal(ours, git && !folioOnly(name), `git on ${JSON.stringify(name).slice(0, 30)}`);
    }
  });

  t.test('should publish the rules in the OpenAPI schemas of create and update', async (t) => {
    const doc = (await api.request('GET', '/openapi.json')).body;
    const expected = {
      type: 'string', pattern: BRANCH_PATTERN, minLength: 1, maxLength: MAX_BRANCH_LENGTH,
      description: `Branch synced for deployments (default main): a Git branch name (git check-ref-format --branch), 1-${MAX_BRANCH_LENGTH} characters, not HEAD, not starting with refs/, without shell metacharacters $ \` ' " ; & | < > ( )`,
    };
    t.same(doc.components.schemas.CreateProject.properties.github_branch, expected);
    t.same(doc.components.schemas.UpdateProject.properties.github_branch, expected);
  });
});
