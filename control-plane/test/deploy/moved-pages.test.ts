import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';

const install = '---\ntitle: Install\n---\n\nRun the installer.\n';

t.test('moved pages in the deployment report and on the site', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);
  const project = (await tp.api('POST', '/projects', { name: 'Moves', slug: 'moves-e2e' })).body;
  const wc = await tp.workingCopy('moves-e2e', {
    'docs.json': JSON.stringify({ name: 'Moves' }),
    'docs/index.mdx': '---\ntitle: Home\n---\n\nHi.\n',
    'docs/guides/install.mdx': install,
  });

  t.test('should list the redirect a rename added and serve it', async (t) => {
    const first = await wc.push();
    const d1 = await tp.waitForDeployment(project.id, (x) => x.commit_sha === first && x.status !== 'building' && x.status !== 'queued');
    t.same([d1.status, d1.redirects_added], ['deployed', []]);
    await wc.write({ 'docs/get-started.mdx': install }, ['docs/guides/install.mdx']);
    const second = await wc.push();
    const d2 = await tp.waitForDeployment(project.id, (x) => x.commit_sha === second && x.status !== 'building' && x.status !== 'queued');
    t.same([d2.status, d2.redirects_added], ['deployed', [{ from: '/guides/install', to: '/get-started' }]]);
    const fetched = (await tp.api('GET', `/projects/${project.id}/deployments/${d2.id}`)).body;
    t.same(fetched.redirects_added, [{ from: '/guides/install', to: '/get-started' }]);
    const old = await tp.site('moves-e2e', '/guides/install');
    t.same([old.status, old.headers.get('location')], [308, '/get-started']);
  });
});
