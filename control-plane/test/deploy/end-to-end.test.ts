import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';

const CONFIG = JSON.stringify({ name: 'Acme Docs' });
const page = (title: string, body: string) => `---\ntitle: ${title}\ndescription: About ${title.toLowerCase()}\n---\n\n${body}\n`;

t.test('push to live', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);

  const project = (await tp.api('POST', '/projects', { name: 'Acme', slug: 'acme-e2e' })).body;
  const wc = await tp.workingCopy('acme-e2e', {
    'docs.json': CONFIG,
    'docs/index.mdx': page('Welcome', 'Hello from the **first** push.'),
    'docs/guides/install.mdx': page('Install', 'Run `npm install folio`.\n\n```bash lines\nnpm install folio\n```'),
  });

  t.test('should deploy a push to the managed repository and serve it', async (t) => {
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.same([d.status, d.pages_total, d.pages_success, d.pages_failed], ['deployed', 2, 2, 0], d.error ?? 'no error');
    const home = await tp.site('acme-e2e', '/');
    t.equal(home.status, 200);
    t.match(home.headers.get('content-type'), /^text\/html/);
    t.match(home.body, /Hello from the <strong>first<\/strong> push\./);
    const md = await tp.site('acme-e2e', '/guides/install', { accept: 'text/markdown' });
    t.match(md.headers.get('content-type'), /^text\/markdown/);
    t.match(md.body, /npm install folio/);
    const p = (await tp.api('GET', `/projects/${project.id}`)).body;
    t.equal(p.status, 'active');
    t.ok(p.last_deploy_at, 'last_deploy_at set on success');
    const pages = (await tp.api('GET', `/projects/${project.id}/pages`)).body.data;
    t.same(pages.map((x: any) => [x.path, x.title]), [['/', 'Welcome'], ['/guides/install', 'Install']]);
    const found = (await tp.api('POST', `/projects/${project.id}/pages/search`, { query: 'install' })).body.results;
    t.equal(found[0].path, '/guides/install');
    t.equal((await tp.site('other-slug', '/')).status, 404, 'an unknown host serves nothing');
  });

  t.test('should compile exactly one page for a one-page edit and serve the new content', async (t) => {
    await wc.write({ 'docs/guides/install.mdx': page('Install', 'Run `npm install folio@2`.') });
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.equal(d.status, 'deployed');
    const stored = await tp.p.cp.m.Deployment.findById(d.id).lean();
    t.equal((stored!.stats as any).compiled, 1, 'exactly one MDX compile');
    t.ok((stored!.stats as any).uploaded < 20, `only changed objects uploaded (${(stored!.stats as any).uploaded})`);
    t.match((await tp.site('acme-e2e', '/guides/install')).body, /folio@2/);
  });

  t.test('should count a broken page as failed and keep serving its old version', async (t) => {
    await wc.write({ 'docs/guides/install.mdx': page('Install', 'Broken <Unclosed\n\nmore') });
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.same([d.status, d.pages_total, d.pages_success, d.pages_failed], ['deployed', 2, 1, 1]);
    t.match(d.error, /^docs\/guides\/install\.mdx:\d+:\d+: /, 'the reason names the file and position');
    t.match((await tp.site('acme-e2e', '/guides/install')).body, /folio@2/, 'the old version is still served');
  });

  t.test('should fail a deployment on an invalid docs.json and leave the site as it was', async (t) => {
    await wc.write({ 'docs.json': JSON.stringify({ theme: 'blue' }) });
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.equal(d.status, 'failed');
    t.match(d.error, /docs\.json: name: Required/);
    t.match((await tp.site('acme-e2e', '/guides/install')).body, /folio@2/);
    t.equal((await tp.api('GET', `/projects/${project.id}`)).body.status, 'active', 'the last deployed site is still live: the project stays active');
  });

  t.test('should queue a manual trigger and deploy it', async (t) => {
    await wc.write({ 'docs.json': CONFIG });
    await wc.push();
    await tp.waitForDeployment(project.id, (x) => x.status === 'deployed' && x.pages_failed === 1);
    const res = await tp.api('POST', `/projects/${project.id}/deployments`);
    t.equal(res.status, 202);
    t.same([res.body.status, res.body.finished_at, res.body.project_id], ['queued', null, project.id]);
    const done = await tp.waitForDeployment(project.id, (x) => x.id === res.body.id);
    t.equal(done.status, 'deployed');
    const got = await tp.api('GET', `/projects/${project.id}/deployments/${res.body.id}`);
    t.same(got.body, done);
  });

  t.test('should record broken links as warnings on the deployment, and fail it when docs.json makes them errors', async (t) => {
    await wc.write({ 'docs/guides/install.mdx': page('Install', '## Steps\n\nSee [the steps](#steps), [home](/), [gone](/gone) and [a lost anchor](/#lost).') });
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    const broken = [
      'docs/guides/install.mdx:8:37: Unexpected link to /gone; expected a page, a file of the site or a redirect source',
      'docs/guides/install.mdx:8:55: Unexpected anchor #lost; expected the id of a heading or element on /',
    ];
    t.same([d.status, d.pages_failed, d.warnings], ['deployed', 0, broken]);
    t.same((await tp.api('GET', `/projects/${project.id}/deployments/${d.id}`)).body.warnings, broken);
    await wc.write({ 'docs.json': JSON.stringify({ name: 'Acme Docs', brokenLinks: 'error' }) });
    const strictSha = await wc.push();
    const strict = await tp.waitForDeployment(project.id, (x) => x.commit_sha === strictSha);
    t.same([strict.status, strict.error, strict.warnings], ['failed', ['2 broken links; docs.json sets brokenLinks to "error":', ...broken].join('\n'), []]);
  });
});
