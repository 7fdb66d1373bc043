import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { createHttpStore } from '@folio/builder/internal/store/http-store.ts';
import { LeaseLostError } from '@folio/builder/internal/worker/control-plane-client.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { runGit } from '../../src/git/git-cli.ts';
import { startGithubStandIn } from '../helpers/github-stand-in.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const CI_MAIN = fileURLToPath(new URL('../../../builder/src/ci/main.ts', import.meta.url));
const LAUNCHER = fileURLToPath(new URL('../../../scripts/bin/run-bundled.mjs', import.meta.url));
const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

/**
 * Runs the CI entry as `npm run ci-deploy` does (from its cached bundle; ci-hostile.test.ts runs
 * it through tsx, as the builder image does), with only the variables a CI step sets.
 */
function ciDeploy(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [LAUNCHER, '--packages=external', CI_MAIN, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d; });
    child.stderr.on('data', (d: Buffer) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

t.test('ci deploy', async (t) => {
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const tp = await startTestPlatform(gh.env);
  await gh.connect(tp.p.cp.m, tp.orgId, 'acme/docs', 'acme/store');
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const { key } = await createApiKey(m, { orgId: tp.orgId, scopes: ['deployments:trigger'] });
  const env = { FOLIO_API_URL: `${tp.p.internalUrl}/v1`, FOLIO_API_KEY: key };
  const project = (await tp.api('POST', '/projects', { name: 'Acme CI', slug: 'acme-ci', github_repo: 'acme/docs' })).body;
  const siteUrl = tp.p.cp.deps.env.siteUrlTemplate.replace('{slug}', 'acme-ci');
  // The customer's checkout: a Git repository on the CI runner, never pushed to the platform.
  const wc = await tp.workingCopy('acme-ci', {
    'docs.json': JSON.stringify({ name: 'Acme CI' }),
    'docs/index.mdx': page('Welcome', 'Built **in CI**.'),
    'docs/guide.mdx': page('Guide', 'First guide.'),
  });
  const head = async () => (await runGit(['rev-parse', 'HEAD'], { cwd: wc.dir })).stdout.toString().trim();

  t.test('should build the checkout, publish through the control plane and record the commit', async (t) => {
    const sha = await head();
    const run = await ciDeploy(['--dir', wc.dir, '--project', project.id], env);
    t.equal(run.code, 0, run.stderr);
    const d = await m.Deployment.findOne({ project_id: project.id }).sort({ started_at: -1 }).lean();
    t.equal(run.stdout, `Deployment: ${d!._id}\nSite:       ${siteUrl}\nStatus:     deployed (2/2 pages)\n`);
    t.same([d!.trigger, d!.commit_sha, d!.status, d!.pages_total, d!.pages_success, d!.pages_failed], ['ci', sha, 'deployed', 2, 2, 0]);
    const home = await tp.site('acme-ci', '/');
    t.equal(home.status, 200);
    t.match(home.body, /Built <strong>in CI<\/strong>\./);
    t.match((await tp.site('acme-ci', '/guide')).body, /First guide\./);
    const pages = (await tp.api('GET', `/projects/${project.id}/pages`)).body.data;
    t.same(pages.map((p: any) => [p.path, p.title]), [['/', 'Welcome'], ['/guide', 'Guide']]);
    const p = (await tp.api('GET', `/projects/${project.id}`)).body;
    t.same([p.status, typeof p.last_deploy_at], ['active', 'string']);
  });

  t.test('should compile only the edited page on the next run', async (t) => {
    await wc.write({ 'docs/guide.mdx': page('Guide', 'Second guide.') });
    const sha = await head();
    const run = await ciDeploy(['--dir', wc.dir, '--project', project.id], env);
    t.equal(run.code, 0, run.stderr);
    const d = await m.Deployment.findOne({ project_id: project.id, commit_sha: sha }).lean();
    t.same([d!.trigger, d!.status, (d!.stats as any).compiled], ['ci', 'deployed', 1]);
    t.match((await tp.site('acme-ci', '/guide')).body, /Second guide\./);
  });

  t.test('should exit 1 when the deployment fails and leave the site as it was', async (t) => {
    await wc.write({ 'docs.json': JSON.stringify({ theme: 'larch' }) });
    const sha = await head();
    const run = await ciDeploy(['--dir', wc.dir, '--project', project.id], env);
    t.equal(run.code, 1);
    t.match(run.stderr, /^Deployment failed: docs\.json: name: Required/m);
    const d = await m.Deployment.findOne({ project_id: project.id, commit_sha: sha }).lean();
    t.same([d!.trigger, d!.status], ['ci', 'failed']);
    t.match((await tp.site('acme-ci', '/guide')).body, /Second guide\./);
  });

  t.test('should exit 1 with the control plane\'s reason for a key without the scope', async (t) => {
    const { key: readOnly } = await createApiKey(m, { orgId: tp.orgId, scopes: ['deployments:read'] });
    const before = await m.Deployment.countDocuments({ project_id: project.id });
    const run = await ciDeploy(['--dir', wc.dir, '--project', project.id], { ...env, FOLIO_API_KEY: readOnly });
    t.equal(run.code, 1);
    t.equal(run.stderr, 'error: The control plane refused the deployment (403 forbidden: This API key lacks the scope deployments:trigger)\n');
    t.equal(await m.Deployment.countDocuments({ project_id: project.id }), before);
  });

  t.test('should exit 2 listing every missing option', async (t) => {
    const run = await ciDeploy([], {});
    t.equal(run.code, 2);
    t.equal(run.stderr, [
      'FOLIO_API_URL: Required; expected the control plane URL, e.g. https://api.folio.dev',
      'FOLIO_API_KEY: Required; expected an API key with the deployments:trigger scope',
      '--project: Required; expected the project id (or FOLIO_PROJECT_ID)',
      'usage: ci-deploy [--dir <checkout>] [--project <id>] [--api-url <url>] [--commit <sha>]  (FOLIO_API_KEY in the environment)',
      '',
    ].join('\n'));
  });

  t.test('should serve the ObjectStore contract over HTTP and stop at a lost lease', async (t) => {
    const other = (await tp.api('POST', '/projects', { name: 'Store', slug: 'ci-store', github_repo: 'acme/store' })).body;
    const res = await fetch(`${tp.p.internalUrl}/internal/v1/ci/deployments`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ project_id: other.id, commit_sha: 'b'.repeat(40) }) });
    const job = await res.json();
    const store = createHttpStore({ url: `${tp.p.internalUrl}${job.store.url}`, token: job.token, fencing: job.fencing });
    const bytes = new TextEncoder().encode('{"a":1}');
    await store.put('data/a b.json', bytes, { contentType: 'application/json', cacheControl: 'no-cache' });
    await store.put('index.html', new TextEncoder().encode('<p>x</p>'));
    t.same(await store.get('data/a b.json'), bytes);
    t.equal(await store.get('missing.html'), undefined);
    t.same(await store.head('data/a b.json'), { etag: createHash('md5').update(bytes).digest('hex'), size: 7, contentType: 'application/json' });
    t.equal(await store.head('missing.html'), undefined);
    t.same(await store.list(''), ['data/a b.json', 'index.html']);
    t.same(await store.list('data/'), ['data/a b.json']);
    await store.delete(['index.html', 'never-there.html']);
    t.same(await store.list(''), ['data/a b.json']);
    await t.rejects(store.put('../x', bytes), /Unexpected object key "\.\.\/x"/, 'refused before any request');
    const stale = createHttpStore({ url: `${tp.p.internalUrl}${job.store.url}`, token: job.token, fencing: job.fencing + 1 });
    await t.rejects(stale.put('index.html', bytes), LeaseLostError);
    t.equal(await tp.p.store.get(`sites/${other.id}/index.html`), undefined);

    // Uploads are sent as they are (node:http), large ones included, and fail as other requests do.
    const large = new Uint8Array(6 * 1024 * 1024).map((_, i) => (i * 7) & 0xff);
    await store.put('llms-full.txt', large);
    t.same(await store.head('llms-full.txt'), { etag: createHash('md5').update(large).digest('hex'), size: large.byteLength, contentType: 'text/plain; charset=utf-8' });
    t.ok(Buffer.from((await tp.p.store.get(`sites/${other.id}/llms-full.txt`))!).equals(large), 'stored byte for byte');
    const pieces = (async function* () { for (let at = 0; at < large.byteLength; at += 1024 * 1024) yield large.subarray(at, at + 1024 * 1024); })();
    await store.putStream('streamed.txt', { chunks: pieces, size: large.byteLength });
    t.same(await store.head('streamed.txt'), { etag: createHash('md5').update(large).digest('hex'), size: large.byteLength, contentType: 'text/plain; charset=utf-8' }, 'streamed in pieces');
    const wrongToken = createHttpStore({ url: `${tp.p.internalUrl}${job.store.url}`, token: 'not-the-token', fencing: job.fencing });
    await t.rejects(wrongToken.put('index.html', bytes), LeaseLostError, 'another token: the lease is not this run\'s');
    const badFencing = createHttpStore({ url: `${tp.p.internalUrl}${job.store.url}`, token: job.token, fencing: 0 });
    await t.rejects(badFencing.put('index.html', bytes), { code: 'store_error', message: /^The control plane answered 400 to PUT \/index\.html: \{"error":"invalid_request"/ });
    const nowhere = createHttpStore({ url: 'http://127.0.0.1:9/internal/v1/jobs/x/objects', token: job.token, fencing: job.fencing, timeoutMs: 5_000 });
    await t.rejects(nowhere.put('index.html', bytes), { code: 'store_unreachable', message: 'The control plane did not answer PUT /index.html' });
  });
});
