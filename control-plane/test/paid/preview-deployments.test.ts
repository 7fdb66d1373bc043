import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { dashboardOrigin } from '../../src/env.ts';
import { branchHash, previewLabel, sanitizeBranch, splitPreviewHost } from '../../src/sites/preview-label.ts';
import { withPoweredByBadge } from '@folio/site-template/shared/powered-by.ts';
import { decoratePreviewHtml } from '../../src/sites/preview-page.ts';
import { removeSitePassword, setSitePassword } from '../../src/sites/password-settings.ts';
import { signBody } from '../../src/webhooks/verify-signature.ts';
import { startGithubStandIn } from '../helpers/github-stand-in.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const run = promisify(execFile);
const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;
const BRANCH = 'feature/New_Page';
const HOST = 'prev-docs--feature-new-page';
const SECRET = 'preview-webhook-secret';

t.test('preview deployments', async (t) => {
  // The GitHub-connected project's repository is resolved through the stand-in's API, but its builds
  // clone from where nothing listens (and are retried): its subtest checks queueing and deletion only.
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const tp = await startTestPlatform({ ...gh.env, GITHUB_WEBHOOK_SECRET: SECRET, GITHUB_BASE_URL: 'http://127.0.0.1:9' });
  t.teardown(() => tp.close());
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);
  const m = tp.p.cp.m;
  const env = tp.p.cp.deps.env;
  const store = tp.p.store;
  await m.Organization.updateOne({ _id: tp.orgId }, { $set: { plan: 'pro' } });

  const project = (await tp.api('POST', '/projects', { name: 'Preview Docs', slug: 'prev-docs' })).body;
  const wc = await tp.workingCopy('prev-docs', {
    'docs.json': JSON.stringify({ name: 'Preview Docs' }),
    'docs/index.mdx': page('Home', 'Welcome home.'), 'docs/a.mdx': page('Alpha', 'Alpha on main.'),
    'docs/b.mdx': page('Beta', 'Beta stays.'), 'docs/c.mdx': page('Gamma', 'Gamma stays.'),
  });
  const mainSha = await wc.push();
  const production = await tp.waitForDeployment(project.id, (d) => d.commit_sha === mainSha);
  t.equal(production.status, 'deployed', production.error ?? '');
  const git = async (...args: string[]) => {
    const { stderr } = await run('git', args, { cwd: wc.dir });
    return stderr.split('\n').filter((l) => l.startsWith('remote:')).map((l) => l.trimEnd());
  };
  /** Every key under `prefix` with its etag: what a site (or its state) holds. */
  const snapshot = async (prefix: string) => Object.fromEntries(await Promise.all((await store.list(prefix)).sort().map(async (k) => [k, (await store.head(k))?.etag])));
  const productionBefore = { site: await snapshot(`sites/${project.id}/`), state: await snapshot(`state/${project.id}/`) };
  const projectBefore = (await tp.api('GET', `/projects/${project.id}`)).body;
  const previewUrl = env.siteUrlTemplate.replace('{slug}', HOST);
  const productionUrl = env.siteUrlTemplate.replace('{slug}', 'prev-docs');

  let preview: any;
  t.test('should build a pushed branch as a preview on pro, compile only the changed page and leave production unchanged', async (t) => {
    await run('git', ['checkout', '-q', '-b', BRANCH], { cwd: wc.dir });
    await wc.write({ 'docs/a.mdx': page('Alpha', 'Alpha on the branch.') });
    const sha = (await run('git', ['rev-parse', 'HEAD'], { cwd: wc.dir })).stdout.trim();
    const lines = await git('push', 'origin', BRANCH);
    preview = await tp.waitForDeployment(project.id, (d) => d.branch === BRANCH);
    t.same(lines, [
      `remote: Preview of branch ${BRANCH} queued — follow it at ${dashboardOrigin(env)}/projects/${project.id}/deployments/${preview.id}`,
      `remote: Preview URL: ${previewUrl}`,
    ]);
    t.same({ ...preview, id: 'id', started_at: 'at', finished_at: 'at' }, {
      id: 'id', status: 'deployed', commit_sha: sha, project_id: project.id, started_at: 'at', finished_at: 'at',
      pages_total: 4, pages_success: 4, pages_failed: 0, error: null, warnings: [], redirects_added: [],
      branch: BRANCH, preview_url: previewUrl,
    });
    t.same({ ...production, id: 'id', started_at: 'at', finished_at: 'at' }, {
      id: 'id', status: 'deployed', commit_sha: mainSha, project_id: project.id, started_at: 'at', finished_at: 'at',
      pages_total: 4, pages_success: 4, pages_failed: 0, error: null, warnings: [], redirects_added: [],
      branch: 'main', preview_url: null,
    });
    const stats = (await m.Deployment.findById(preview.id).lean())!.stats as { compiled: number };
    t.equal(stats.compiled, 1, 'one page compiled: the others came from production\'s page cache');

    const branchPage = await tp.site(HOST, '/a');
    t.equal(branchPage.status, 200);
    t.match(branchPage.body, /Alpha on the branch\./);
    const live = await tp.site('prev-docs', '/a');
    t.match(live.body, /Alpha on main\./);
    t.notMatch(live.body, /on the branch/);
    t.same({ site: await snapshot(`sites/${project.id}/`), state: await snapshot(`state/${project.id}/`) }, productionBefore, 'production\'s files and state untouched');
    t.same((await tp.api('GET', `/projects/${project.id}`)).body, projectBefore, 'project status and last_deploy_at describe production');
    t.match((await m.Page.findOne({ project_id: project.id, path: '/a' }).lean())?.source_mdx, /Alpha on main\./, 'the pages API keeps production\'s pages');
  });

  t.test('should mark every preview response noindex, show the banner and keep the stored pages production\'s bytes', async (t) => {
    for (const path of ['/', '/a', '/b', '/no-such-page', '/llms.txt', '/robots.txt']) {
      const res = await tp.site(HOST, path);
      t.equal(res.headers.get('x-robots-tag'), 'noindex', path);
    }
    const home = await tp.site(HOST, '/');
    t.match(home.body, /<meta name="robots" content="noindex"><\/head>/);
    t.match(home.body, `Preview of branch <strong>${BRANCH}</strong> · <a href="${productionUrl}" style="color:inherit">Go to the production site</a></div>`);
    const missing = await tp.site(HOST, '/no-such-page');
    t.equal(missing.status, 404);
    t.match(missing.body, /Preview of branch/);
    const robots = await tp.site(HOST, '/robots.txt');
    t.same([robots.status, robots.body], [200, 'User-agent: *\nDisallow: /\n']);
    const live = await tp.site('prev-docs', '/b');
    t.equal(live.headers.get('x-robots-tag'), null);
    t.notMatch(live.body, /Preview of branch|name="robots"/);
    // An unchanged page: the preview stored exactly production's bytes; the banner (and, on pro, the badge) is added when served.
    const stored = await store.get(`previews/${project.id}/feature-new-page/b/index.html`);
    const prod = await store.get(`sites/${project.id}/b/index.html`);
    t.ok(stored && prod && Buffer.from(stored).equals(Buffer.from(prod)), 'stored shell byte-identical to production\'s');
    t.equal((await tp.site(HOST, '/b')).body, withPoweredByBadge(decoratePreviewHtml(Buffer.from(prod!).toString('utf8'), BRANCH, productionUrl)));
  });

  t.test('should ask a preview for the site password like production', async (t) => {
    const ctx = { m, now: new Date(), upgradeUrl: env.UPGRADE_URL };
    await setSitePassword(ctx, tp.orgId, project.id, 'open sesame');
    t.teardown(() => removeSitePassword(ctx, tp.orgId, project.id));
    // The site server caches a host's site for 2 s; the gate reads the project on each request.
    const res = await tp.site(HOST, '/a');
    t.equal(res.status, 401);
    t.match(res.body, /<form method="post" action="\/_folio\/password">/);
    t.notMatch(res.body, /Alpha/);
    t.equal(res.headers.get('x-robots-tag'), 'noindex');
  });

  t.test('should never serve one project\'s preview at another project\'s or a malformed host', async (t) => {
    const other = await tp.newOrg(`preview-other-${process.pid}`);
    const theirs = (await tp.api('POST', '/projects', { name: 'Other', slug: 'other-docs' }, other.key)).body;
    const owc = await tp.workingCopy('other-docs', { 'docs.json': JSON.stringify({ name: 'Other' }), 'docs/index.mdx': page('Other', 'Other home.') }, other.key);
    const osha = await owc.push();
    t.equal((await tp.waitForDeployment(theirs.id, (d) => d.commit_sha === osha, undefined, other.key)).status, 'deployed');
    for (const host of [
      'other-docs--feature-new-page', 'prev-docs--feature', 'prev-docs--feature-new-page-x', 'prev-docs---feature-new-page',
      'prev-docs--feature--new-page', '--feature-new-page', 'prev-docs--', 'prev-docs--feature_new_page', 'prev-docs--feature-new-page.other-docs',
    ]) {
      const res = await tp.site(host, '/a');
      t.same([res.status, res.body], [404, 'No site is published at this address.\n'], host);
    }
    t.equal((await tp.site('PREV-DOCS--FEATURE-NEW-PAGE', '/a')).status, 200, 'hosts are case-insensitive');
    const taken = await tp.api('POST', '/projects', { name: 'Squat', slug: HOST }, other.key);
    t.same([taken.status, taken.body], [409, { error: 'conflict', message: `slug: "${HOST}" is already taken` }], 'a preview address cannot become a project');
  });

  t.test('should give a branch whose label is another project\'s slug a hashed label', async (t) => {
    const other = await tp.newOrg(`preview-clash-${process.pid}`);
    t.equal((await tp.api('POST', '/projects', { name: 'Clash', slug: 'prev-docs--clash' }, other.key)).status, 201);
    await run('git', ['checkout', '-q', '-b', 'clash', 'main'], { cwd: wc.dir });
    const lines = await git('push', 'origin', 'clash');
    t.equal(lines[1], `remote: Preview URL: ${env.siteUrlTemplate.replace('{slug}', `prev-docs--clash-${branchHash('clash')}`)}`);
    const d = await tp.waitForDeployment(project.id, (x) => x.branch === 'clash');
    t.equal(d.status, 'deployed', d.error ?? '');
  });

  t.test('should sanitise branch names to DNS labels and split hosts at the last --', async (t) => {
    t.equal(sanitizeBranch('Feature/New_Page!!x'), 'feature-new-page-x');
    t.equal(sanitizeBranch('--__--'), '');
    const free = async () => false;
    t.equal(await previewLabel('docs', 'Fix/Typo', free), 'fix-typo');
    t.equal(await previewLabel('docs', '___', free), branchHash('___'), 'nothing left: the hash alone');
    const long = `feature/${'x'.repeat(80)}`;
    const cut = (await previewLabel('docs', long, free))!;
    t.equal(`docs--${cut}`.length, 63, 'cut to fill the 63-character DNS label');
    t.equal(cut, `feature-${'x'.repeat(63 - 6 - 7 - 8)}-${branchHash(long)}`);
    t.equal(await previewLabel('docs', 'a_b', async (l) => l === 'a-b'), `a-b-${branchHash('a_b')}`, 'a taken label gets the hash');
    t.equal(await previewLabel('s'.repeat(55), 'x', free), undefined, 'no room beside a 55-character slug');
    t.same(splitPreviewHost('my--docs--fix-typo'), { slug: 'my--docs', label: 'fix-typo' });
    t.equal(splitPreviewHost('docs--Fix'), undefined);
    t.equal(splitPreviewHost('docs'), undefined);
  });

  t.test('should keep serving previews after a downgrade to free and build none for new pushes', async (t) => {
    await m.Organization.updateOne({ _id: tp.orgId }, { $set: { plan: 'free' } });
    t.teardown(() => m.Organization.updateOne({ _id: tp.orgId }, { $set: { plan: 'pro' } }));
    const count = await m.Deployment.countDocuments({ project_id: project.id });
    await run('git', ['checkout', '-q', '-b', 'later', 'main'], { cwd: wc.dir });
    t.same(await git('push', 'origin', 'later'), [
      'remote: Branch later was pushed; only main deploys the site. Preview deployments of other branches need the Pro plan: https://folio.dev/pricing',
    ]);
    t.equal(await m.Deployment.countDocuments({ project_id: project.id }), count, 'no deployment queued');
    t.match((await tp.site(HOST, '/a')).body, /Alpha on the branch\./, 'the existing preview is still served');
  });

  t.test('should remove a preview when its branch is deleted', async (t) => {
    t.same(await git('push', 'origin', '--delete', BRANCH), [`remote: Branch ${BRANCH} was deleted; its preview was removed`]);
    t.same(await store.list(`previews/${project.id}/feature-new-page/`), []);
    t.same(await store.list(`preview-state/${project.id}/feature-new-page/`), []);
    // The site server keeps a host's site for up to 2 s.
    await new Promise((r) => setTimeout(r, 2100));
    const res = await tp.site(HOST, '/a');
    t.same([res.status, res.body], [404, 'No site is published at this address.\n']);
    t.same((await tp.api('GET', `/projects/${project.id}/deployments/${preview.id}`)).body.preview_url, previewUrl, 'the deployment record stays');
  });

  t.test('should queue a preview for a GitHub push to another branch and remove it when the branch is deleted', async (t) => {
    const [repo] = await gh.connect(m, tp.orgId, 'acme/previews');
    const installation = await m.GithubInstallation.findOne({ org_id: tp.orgId }).lean();
    const hooked = (await tp.api('POST', '/projects', { name: 'Hooked', slug: 'hooked', github_repo: 'acme/previews' })).body;
    let delivery = 0;
    const send = async (fields: Record<string, unknown>) => {
      const body = JSON.stringify({ ref: 'refs/heads/topic', after: 'a'.repeat(40), deleted: false, installation: { id: installation!._id }, repository: { id: repo.id, full_name: 'acme/previews' }, ...fields });
      const res = await fetch(`${tp.p.cp.apiUrl}/webhooks/github`, {
        method: 'POST', body,
        headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': `preview-${process.pid}-${++delivery}`, 'x-hub-signature-256': signBody(SECRET, Buffer.from(body)) },
      });
      return [res.status, await res.json()];
    };
    const queued = await send({});
    const d = await m.Deployment.findOne({ project_id: hooked.id, branch: 'topic' }).lean();
    t.same(queued, [202, { status: 'queued', deployments: [d?._id] }]);
    t.same([d?.preview_label, d?.preview_url, d?.trigger], ['topic', env.siteUrlTemplate.replace('{slug}', 'hooked--topic'), 'webhook']);
    t.same(await send({}), [200, { status: 'duplicate' }], 'the same commit again queues nothing');
    t.same(await send({ deleted: true, after: '0'.repeat(40) }), [200, { status: 'ignored', reason: 'refs/heads/topic was deleted; its preview was removed from 1 project(s)' }]);
    t.equal((await m.Preview.findOne({ project_id: hooked.id, branch: 'topic' }).lean())?.status, 'deleted');
    t.same((await tp.site('hooked--topic', '/')).status, 404);
  });

  t.test('should remove every preview with the project', async (t) => {
    t.not((await store.list(`previews/${project.id}/`)).length, 0, 'the clash preview exists');
    t.equal((await tp.api('DELETE', `/projects/${project.id}`)).status, 204);
    t.same(await store.list(`previews/${project.id}/`), []);
    t.same(await store.list(`preview-state/${project.id}/`), []);
    t.equal(await m.Preview.countDocuments({ project_id: project.id }), 0);
  });
});
