import t from 'tap';
import { VERSIONED_SITE } from '../../../builder/test/helpers/versioned-site.ts';
import { startTestPlatform } from '../helpers/platform.ts';

t.test('page versions', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);
  const project = (await tp.api('POST', '/projects', { name: 'Acme', slug: 'acme-versions' })).body;
  const wc = await tp.workingCopy('acme-versions', VERSIONED_SITE);
  const list = async (query = '') => (await tp.api('GET', `/projects/${project.id}/pages${query}`)).body.data.map((p: { path: string; version: string }) => `${p.version} ${p.path}`);

  await t.test('should list the pages of a version label, latest by default, fallbacks left out', async (t) => {
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.same([d.status, d.pages_total], ['deployed', 5], d.error ?? 'no error');
    t.same(await list(), ['latest /', 'latest /fr', 'latest /guides/auth', 'latest /guides/install']);
    t.same(await list('?version=v2'), ['v2 /v2/guides/install']);
    t.same(await list('?version=v1'), []);
    t.equal((await tp.site('acme-versions', '/fr/v2/guides/auth')).status, 200, 'a fallback is served');
  });

  await t.test('should move a page to its new label when docs.json makes its folder a version', async (t) => {
    const config = JSON.parse(VERSIONED_SITE['docs.json']);
    config.navigation.versions = [config.navigation.versions[0]];
    await wc.write({ 'docs.json': JSON.stringify(config) });
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.equal(d.status, 'deployed', d.error ?? 'no error');
    t.same(await list('?version=v2'), [], 'v2/ is a plain folder now');
    t.same(await list(), ['latest /', 'latest /fr', 'latest /guides/auth', 'latest /guides/install', 'latest /v2/guides/install']);
  });
});
