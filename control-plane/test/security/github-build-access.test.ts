import t from 'tap';
import { forgetTokens } from '../../src/github/installation-tokens.ts';
import { startGithubStandIn } from '../helpers/github-stand-in.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;
const CONNECT = 'connect the GitHub App in the dashboard (Settings → GitHub) on the account that owns the repository and grant it the repository';

t.test('GitHub builds read through the organization\'s installation', async (t) => {
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const tp = await startTestPlatform(gh.env);
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const docs = await gh.repo('AcmeCorp/Docs', { files: { 'docs.json': JSON.stringify({ name: 'Acme' }), 'docs/index.mdx': page('Welcome', 'Read from a **private** repository.') } });
  const secret = await gh.repo('AcmeCorp/Secret', { files: { 'docs.json': JSON.stringify({ name: 'Secret' }), 'docs/index.mdx': page('Secret', 'Not for builds of Docs.') } });
  const inst = gh.install('AcmeCorp');
  await gh.link(m, tp.orgId, inst);
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);

  const created = await tp.api('POST', '/projects', { name: 'Acme', slug: 'gh-build', github_repo: 'acmecorp/docs' });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const project = created.body;
  const deploy = async () => {
    const res = await tp.api('POST', `/projects/${project.id}/deployments`);
    t.equal(res.status, 202, JSON.stringify(res.body));
    return tp.waitForDeployment(project.id, (d) => d.id === res.body.id);
  };

  t.test('should clone with a token minted for the project\'s repository alone and deploy it', async (t) => {
    const minted = gh.mints.length;
    const d = await deploy();
    t.same([d.status, d.error], ['deployed', null]);
    t.match((await tp.site('gh-build', '/')).body, /Read from a <strong>private<\/strong> repository\./);
    const buildMints = gh.mints.slice(minted);
    t.same(buildMints.map((x) => [x.installationId, x.repoIds]), [[inst.id, [docs.id]]], 'one token, for this repository only');
    t.ok(gh.requests.includes('GET /AcmeCorp/Docs.git/info/refs'), 'cloned from GITHUB_BASE_URL under GitHub\'s name');
    // The build's token reads its repository, and nothing else of the same installation.
    const auth = { authorization: `Basic ${Buffer.from(`x-access-token:${buildMints[0].token}`).toString('base64')}` };
    const refs = (name: string) => fetch(`${gh.url}/${name}.git/info/refs?service=git-upload-pack`, { headers: auth });
    t.equal((await refs('AcmeCorp/Docs')).status, 200);
    t.equal((await refs('AcmeCorp/Secret')).status, 404);
    t.ok(secret.id);
  });

  t.test('should fail a deployment of a project connected before installations, with the customer\'s error, never a platform token', async (t) => {
    const legacy = (await tp.api('POST', '/projects', { name: 'Old', slug: 'gh-legacy' })).body;
    await m.Project.updateOne({ _id: legacy.id }, { $set: { github_repo: 'AcmeCorp/Docs', github_repo_id: null, github_installation_id: null } });
    const res = await tp.api('POST', `/projects/${legacy.id}/deployments`);
    const d = await tp.waitForDeployment(legacy.id, (x) => x.id === res.body.id);
    t.same([d.status, d.error], ['failed', `Cannot read AcmeCorp/Docs: this project was connected to GitHub before repositories were read through the GitHub App; ${CONNECT}, then connect the repository again (PATCH the project's github_repo)`]);
    // Reconnecting through the installation makes it build.
    const patched = await tp.api('PATCH', `/projects/${legacy.id}`, { github_repo: 'AcmeCorp/Docs' });
    t.equal(patched.status, 200);
    const again = await tp.api('POST', `/projects/${legacy.id}/deployments`);
    t.equal((await tp.waitForDeployment(legacy.id, (x) => x.id === again.body.id)).status, 'deployed');
  });

  t.test('should fail the next deployment once the installation is unlinked, and once GitHub refuses the repository', async (t) => {
    await m.GithubInstallation.deleteOne({ _id: inst.id });
    const d = await deploy();
    t.same([d.status, d.error, d.pages_total], ['failed', `Cannot read AcmeCorp/Docs: the GitHub App installation it was connected through (${inst.id}) is no longer connected to this organization; ${CONNECT}`, null]);
    // Linked again, but the installation no longer covers the repository on GitHub.
    await gh.link(m, tp.orgId, inst);
    inst.selection = 'selected';
    inst.repoIds.clear();
    forgetTokens(m, inst.id);
    const refused = await deploy();
    t.same([refused.status, refused.error], ['failed', `Cannot read AcmeCorp/Docs: GitHub refused a token for it (422: There is at least one repository that does not exist or is not accessible to the parent installation.); the App may have been uninstalled or the repository removed from it: ${CONNECT}`]);
  });
});
