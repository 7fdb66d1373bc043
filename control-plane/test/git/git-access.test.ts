import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { claimJob } from '../../src/deploy/claim-job.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const run = promisify(execFile);

t.test('git access to managed repositories', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const project = (await tp.api('POST', '/projects', { name: 'Access', slug: 'git-access' })).body;
  const other = (await tp.api('POST', '/projects', { name: 'Other', slug: 'git-access-other' })).body;
  const wc = await tp.workingCopy('git-access', { 'docs.json': '{"name":"Access"}', 'docs/index.mdx': '# Home\n' });
  const head = await wc.push();
  await (await tp.workingCopy('git-access-other', { 'docs.json': '{"name":"Other"}' })).push();

  const url = (slug: string, password: string) => `${tp.p.internalUrl.replace('http://', `http://git:${password}@`)}/git/${slug}.git`;
  /** The status of a Git service's ref advertisement asked with `password` (none: no credentials). */
  const refs = async (slug: string, service: 'git-upload-pack' | 'git-receive-pack', password?: string) => {
    const res = await fetch(`${tp.p.internalUrl}/git/${slug}.git/info/refs?service=${service}`, {
      headers: password === undefined ? {} : { authorization: `Basic ${Buffer.from(`git:${password}`).toString('base64')}` },
    });
    await res.arrayBuffer();
    return res.status;
  };
  /** `git ls-remote` with the CLI: the branch heads it lists, or the failure. */
  const lsRemote = async (slug: string, password: string) => run('git', ['ls-remote', '--heads', url(slug, password)])
    .then(({ stdout }) => stdout.trim(), (err: { stderr: string }) => `failed: ${err.stderr.trim().split('\n').pop()}`);

  await t.test('should let the organization\'s key read and push, and nobody without credentials', async (t) => {
    t.equal(await lsRemote('git-access', tp.key), `${head}\trefs/heads/main`);
    t.equal(await refs('git-access', 'git-receive-pack', tp.key), 200);
    t.equal(await refs('git-access', 'git-upload-pack'), 401);
    t.equal(await refs('git-access', 'git-upload-pack', 'svc_nothing_wrong'), 401, 'an invalid key');
  });

  await t.test('should answer another organization\'s key as for a missing repository', async (t) => {
    const stranger = await tp.newOrg('git-access-stranger');
    t.equal(await refs('git-access', 'git-upload-pack', stranger.key), 404);
    t.equal(await refs('git-access-missing', 'git-upload-pack', tp.key), 404);
  });

  await t.test('should let a read-only key fetch but not push, and tell git why', async (t) => {
    const { key } = await createApiKey(m, { orgId: tp.orgId, scopes: ['projects:read'] });
    t.equal(await refs('git-access', 'git-upload-pack', key), 200);
    const message = 'This API key lacks the scope projects:write, which Git pushes need; create a key with projects:write in Settings → API keys and use it as the password';
    const res = await fetch(`${tp.p.internalUrl}/git/git-access.git/info/refs?service=git-receive-pack`, { headers: { authorization: `Basic ${Buffer.from(`git:${key}`).toString('base64')}` } });
    t.same([res.status, res.headers.get('content-type'), await res.text()], [
      200, 'application/x-git-receive-pack-advertisement',
      `001f# service=git-receive-pack\n0000${(Buffer.byteLength(`ERR ${message}\n`) + 4).toString(16).padStart(4, '0')}ERR ${message}\n`,
    ], 'the refusal as an ERR pkt-line in the advertisement');
    await wc.write({ 'docs/more.mdx': '# More\n' });
    const pushed = await run('git', ['push', url('git-access', key), 'main'], { cwd: wc.dir }).then(() => 'pushed', (err: { stderr: string }) => err.stderr.trim());
    t.equal(pushed, `fatal: remote error: ${message}`, 'git prints the server\'s explanation');
    const post = await fetch(`${tp.p.internalUrl}/git/git-access.git/git-receive-pack`, {
      method: 'POST', headers: { authorization: `Basic ${Buffer.from(`git:${key}`).toString('base64')}`, 'content-type': 'application/x-git-receive-pack-request' }, body: '0000',
    });
    t.same([post.status, await post.json()], [403, { error: 'forbidden', message }], 'a client that skipped the advertisement gets the 403');
  });

  await t.test('should tell git why a key without projects:read cannot fetch', async (t) => {
    const { key } = await createApiKey(m, { orgId: tp.orgId, scopes: ['deployments:trigger'] });
    t.equal(await lsRemote('git-access', key),
      'failed: fatal: remote error: This API key lacks the scope projects:read, which Git fetches need; create a key with projects:read in Settings → API keys and use it as the password');
  });

  await t.test('should confine a build token to fetching its own project while it builds', async (t) => {
    // The push queued a deployment of each project; the queue hands them out with build tokens.
    const jobs = [(await claimJob(m, 'w', new Date()))!, (await claimJob(m, 'w', new Date()))!];
    const own = jobs.find((j) => j.deployment.project_id === project.id)!;
    const others = jobs.find((j) => j.deployment.project_id === other.id)!;
    t.equal(await lsRemote('git-access', own.token), `${head}\trefs/heads/main`);
    t.equal(await refs('git-access', 'git-receive-pack', own.token), 401, 'no push with a build token');
    t.equal(await refs('git-access', 'git-upload-pack', others.token), 401, 'another project\'s token');
    await m.Deployment.updateOne({ _id: own.deployment._id }, { $set: { status: 'deployed' } });
    t.equal(await refs('git-access', 'git-upload-pack', own.token), 401, 'a finished deployment\'s token');
  });
});
