import t from 'tap';
import { signBody } from '../../src/webhooks/verify-signature.ts';
import { startTestApi } from '../helpers/api.ts';
import { addUser, dash, dashTenant, signIn } from '../helpers/dashboard.ts';
import { envWithGithub, startGithubStandIn } from '../helpers/github-stand-in.ts';

const SECRET = 'github-app-webhook-secret';
// /v1 names the field as sent; the dashboard in words (dashboard-app/src/shared/labels.ts).
const notAccessible = (repo: string, field = 'github_repo') => ({
  error: 'github_repo_not_accessible',
  message: `${field}: No GitHub App installation of this organization can read ${repo}; install the GitHub App on that account, grant it the repository, and connect the installation in the dashboard (Settings → GitHub)`,
});
let delivery = 0;

t.test('GitHub repository access', async (t) => {
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const api = await startTestApi({ env: envWithGithub(gh, { GITHUB_WEBHOOK_SECRET: SECRET }) });
  t.teardown(() => api.close());
  const m = api.cp.m;

  // Organization A owns the GitHub account AcmeCorp and its private repositories; B is another customer.
  const privateDocs = await gh.repo('AcmeCorp/Private-Docs');
  const otherA = await gh.repo('AcmeCorp/handbook');
  const instA = gh.install('AcmeCorp');
  const orgA = await dashTenant(api, 'enterprise');
  const keyA = await api.key(orgA.orgId);
  const ghUserA = gh.user('ada', [instA]);
  const bravoDocs = await gh.repo('bravo/docs');
  const instB = gh.install('bravo');
  const orgB = await dashTenant(api, 'enterprise');
  const keyB = await api.key(orgB.orgId);
  const ghUserB = gh.user('mallory', [instB]);

  const installLink = async (auth: typeof orgA.auth) => {
    const res = await dash(api, 'GET', '/github/install-link', { auth });
    t.equal(res.status, 200, res.text);
    return new URL(res.body.url).searchParams.get('state')!;
  };
  const linkAs = (auth: typeof orgA.auth, body: Record<string, unknown>) => dash(api, 'POST', '/github/installations', { auth, body });

  t.test('should refuse a forged installation_id, a foreign or tampered or expired state, and link only what GitHub lists for the user', async (t) => {
    const stateA = await installLink(orgA.auth);
    const stateB = await installLink(orgB.auth);
    t.match(`${gh.url}/apps/folio-test/installations/new?state=${encodeURIComponent(stateB)}`, /installations\/new\?state=/);

    // B came back from installing its own App with its own code, but claims A's installation.
    const forged = await linkAs(orgB.auth, { installation_id: instA.id, setup_action: 'install', code: gh.code(ghUserB), state: stateB });
    t.same([forged.status, forged.body], [403, {
      error: 'github_installation_not_accessible',
      message: 'GitHub installation: GitHub does not list this installation among those your GitHub account can see; install the App from "Connect GitHub" and sign in to GitHub as a user of that account',
    }]);
    const badCode = await linkAs(orgB.auth, { installation_id: instA.id, code: 'not-a-code', state: stateB });
    t.same([badCode.status, badCode.body], [403, {
      error: 'github_authorization_failed',
      message: 'GitHub sign-in: GitHub did not accept the authorization code (it is used once and expires after 10 minutes); start again from "Connect GitHub"',
    }]);
    // A state is bound to its organization and user: A's own link cannot be replayed by B.
    const cases: [string, string][] = [
      [stateA, 'Install link: Unexpected link made for another user or organization; expected one made by you in this organization; start again from "Connect GitHub" in the dashboard'],
      [`${stateB.split('.')[0]}.${'A'.repeat(43)}`, 'Install link: Unexpected signature; expected the state of an install link made by this server; start again from "Connect GitHub" in the dashboard'],
      ['no-dot', 'Install link: Unexpected value; expected the state of an install link; start again from "Connect GitHub" in the dashboard'],
    ];
    for (const [state, message] of cases) {
      const res = await linkAs(orgB.auth, { installation_id: instA.id, code: gh.code(ghUserA), state });
      t.same([res.status, res.body], [400, { error: 'invalid_state', message }], message);
    }
    const saved = api.clock.now;
    api.clock.now = new Date(saved.getTime() + 31 * 60_000);
    const late = await linkAs(orgA.auth, { installation_id: instA.id, code: gh.code(ghUserA), state: stateA });
    api.clock.now = saved;
    t.same([late.status, late.body], [400, { error: 'invalid_state', message: 'Install link: The install link expired (they last 30 minutes); start again from "Connect GitHub" in the dashboard' }]);
    t.equal(await m.GithubInstallation.countDocuments({}), 0, 'nothing linked');

    const linked = await linkAs(orgA.auth, { installation_id: instA.id, setup_action: 'install', code: gh.code(ghUserA), state: stateA });
    t.same([linked.status, linked.body], [201, { id: instA.id, account_login: 'AcmeCorp', account_id: instA.account.id, suspended: false, created_at: api.clock.now.toISOString() }]);
    const again = await linkAs(orgA.auth, { installation_id: instA.id, setup_action: 'update', code: gh.code(ghUserA), state: stateA });
    t.same([again.status, again.body], [200, linked.body], 'linking it again answers it');
    // A member of B who also sees A's installation on GitHub still cannot take it over.
    const both = gh.user('eve', [instA, instB]);
    const taken = await linkAs(orgB.auth, { installation_id: instA.id, code: gh.code(both), state: stateB });
    t.same([taken.status, taken.body], [409, { error: 'installation_already_linked', message: 'GitHub installation: This GitHub App installation is connected to another Folio organization; an installation serves one organization (unlink it there first)' }]);
    // GitHub lists an installation to anyone who reads one of its repositories: that is not enough to hand over the rest.
    const partial = gh.user('intern', [instA], [otherA]);
    const stateA2 = await installLink(orgA.auth);
    const narrow = await linkAs(orgA.auth, { installation_id: instA.id, code: gh.code(partial), state: stateA2 });
    t.same([narrow.status, narrow.body], [403, {
      error: 'github_installation_not_accessible',
      message: 'GitHub installation: Your GitHub account cannot read every repository the installation on AcmeCorp covers; an owner of AcmeCorp must connect it (or limit the installation to repositories you can read)',
    }]);
    const mine = await linkAs(orgB.auth, { installation_id: instB.id, code: gh.code(ghUserB), state: stateB });
    t.equal(mine.status, 201);
    t.same((await dash(api, 'GET', '/github/installations', { auth: orgA.auth })).body, { enabled: true, app_url: `${gh.url}/apps/folio-test`, data: [linked.body] });
    t.same((await dash(api, 'GET', '/github/installations', { auth: orgB.auth })).body.data.map((i: any) => i.id), [instB.id]);
  });

  t.test('should let only owners and admins make install links and link installations', async (t) => {
    const member = await addUser(api, orgA.orgId, 'member');
    const auth = await signIn(api, member.email);
    t.equal((await dash(api, 'GET', '/github/install-link', { auth })).status, 403);
    t.equal((await linkAs(auth, { installation_id: instA.id, code: 'x', state: 'y' })).status, 403);
    t.equal((await dash(api, 'DELETE', `/github/installations/${instA.id}`, { auth })).status, 403);
    t.equal((await dash(api, 'GET', '/github/installations', { auth })).status, 200, 'every role sees them');
  });

  t.test('should refuse B a project on A\'s repository in any letter case, with the same answer as for a repository that does not exist', async (t) => {
    for (const repo of ['AcmeCorp/Private-Docs', 'acmecorp/private-docs', 'ACMECORP/PRIVATE-DOCS', 'AcmeCorp/no-such-repo', 'nobody-here/nothing']) {
      const v1 = await api.request('POST', '/projects', { key: keyB, body: { name: 'Stolen', slug: `stolen-${delivery++}`, github_repo: repo } });
      t.same([v1.status, v1.body], [422, notAccessible(repo)], `/v1 ${repo}`);
      const viaDash = await dash(api, 'POST', '/projects', { auth: orgB.auth, body: { name: 'Stolen', github_repo: repo } });
      t.same([viaDash.status, viaDash.body], [422, notAccessible(repo, 'GitHub repository')], `dashboard ${repo}`);
    }
    t.equal(await m.Project.countDocuments({ org_id: orgB.orgId }), 0, 'no project made');
  });

  t.test('should connect A\'s repository for A under GitHub\'s name and ids, and B\'s own for B', async (t) => {
    const before = gh.mints.length;
    const res = await api.request('POST', '/projects', { key: keyA, body: { name: 'Private', slug: 'acme-private', github_repo: 'acmecorp/PRIVATE-docs' } });
    t.equal(res.status, 201, res.text);
    t.equal(res.body.github_repo, 'AcmeCorp/Private-Docs');
    const row = await m.Project.findById(res.body.id).lean();
    t.same([row!.github_repo_id, row!.github_installation_id], [privateDocs.id, instA.id]);
    const viaDash = await dash(api, 'POST', '/projects', { auth: orgA.auth, body: { name: 'Handbook', github_repo: 'AcmeCorp/Handbook' } });
    t.same([viaDash.status, viaDash.body.github_repo, viaDash.body.git_url], [201, 'AcmeCorp/handbook', null]);
    const own = await api.request('POST', '/projects', { key: keyB, body: { name: 'Bravo', slug: 'bravo-docs', github_repo: 'bravo/docs' } });
    t.same([own.status, own.body.github_repo], [201, 'bravo/docs']);
    // The token that resolved each repository was restricted to it.
    t.same(gh.mints.slice(before).map((x) => x.repoIds), [[privateDocs.id], [otherA.id], [bravoDocs.id]], 'each token minted for the one repository');
  });

  t.test('should refuse a repository a selected-repositories installation does not cover', async (t) => {
    const chosen = await gh.repo('Selective/chosen');
    await gh.repo('Selective/left-out');
    const inst = gh.install('Selective', [chosen]);
    await gh.link(m, orgA.orgId, inst);
    const refused = await api.request('POST', '/projects', { key: keyA, body: { name: 'Out', slug: 'sel-out', github_repo: 'selective/left-out' } });
    t.same([refused.status, refused.body], [422, notAccessible('selective/left-out')]);
    const ok = await api.request('POST', '/projects', { key: keyA, body: { name: 'In', slug: 'sel-in', github_repo: 'selective/chosen' } });
    t.same([ok.status, ok.body.github_repo], [201, 'Selective/chosen']);
  });

  t.test('should route a signed push by installation id and repository id, never by name', async (t) => {
    const send = (payload: Record<string, unknown>, event = 'push') => {
      const body = JSON.stringify(payload);
      return api.request('POST', '/webhooks/github', { raw: body, headers: { 'content-type': 'application/json', 'x-github-event': event, 'x-github-delivery': `sec-${++delivery}`, 'x-hub-signature-256': signBody(SECRET, Buffer.from(body)) } });
    };
    const projectA = await m.Project.findOne({ slug: 'acme-private' }).lean();
    const push = { ref: 'refs/heads/main', after: 'a'.repeat(40), deleted: false };
    const res = await send({ ...push, installation: { id: instA.id }, repository: { id: privateDocs.id, full_name: 'AcmeCorp/Private-Docs' } });
    t.equal(res.status, 202, res.text);
    const queued = await m.Deployment.find({ trigger: 'webhook' }).lean();
    t.same(queued.map((d) => d.project_id), [projectA!._id], 'only A\'s project');
    t.same(res.body, { status: 'queued', deployments: [queued[0]._id] });
    // B names A's repository in a push of its own installation and repository.
    const spoof = await send({ ...push, after: 'b'.repeat(40), installation: { id: instB.id }, repository: { id: bravoDocs.id + 100_000, full_name: 'AcmeCorp/Private-Docs' } });
    t.same([spoof.status, spoof.body], [200, { status: 'ignored', reason: `no project is connected to AcmeCorp/Private-Docs (repository id ${bravoDocs.id + 100_000}) through installation ${instB.id}` }]);
    const crossed = await send({ ...push, after: 'c'.repeat(40), installation: { id: instB.id }, repository: { id: privateDocs.id, full_name: 'AcmeCorp/Private-Docs' } });
    t.same([crossed.status, crossed.body], [200, { status: 'ignored', reason: `no project is connected to AcmeCorp/Private-Docs (repository id ${privateDocs.id}) through installation ${instB.id}` }]);
    const nameOnly = await send({ ...push, after: 'd'.repeat(40), repository: { full_name: 'AcmeCorp/Private-Docs' } });
    t.same([nameOnly.status, nameOnly.body], [200, { status: 'ignored', reason: 'push payload without installation.id, repository.id or ref; expected a push delivered to the GitHub App' }]);
    t.equal(await m.Deployment.countDocuments({ trigger: 'webhook' }), 1, 'nothing else queued');

    const removed = await send({ action: 'removed', installation: { id: instA.id }, repositories_removed: [{ id: otherA.id, full_name: 'AcmeCorp/handbook' }] }, 'installation_repositories');
    t.same([removed.status, removed.body], [200, { status: 'handled', reason: `1 repository(ies) removed from installation ${instA.id}; 1 project(s) connected to them stop building` }]);
    const suspended = await send({ action: 'suspend', installation: { id: instB.id } }, 'installation');
    t.same([suspended.status, suspended.body], [200, { status: 'handled', reason: `installation ${instB.id} is suspended; its projects stop building` }]);
    const refused = await api.request('POST', '/projects', { key: keyB, body: { name: 'Again', slug: 'bravo-again', github_repo: 'bravo/docs' } });
    t.same([refused.status, refused.body], [422, notAccessible('bravo/docs')], 'a suspended installation connects nothing');
    const deleted = await send({ action: 'deleted', installation: { id: instB.id } }, 'installation');
    t.same([deleted.status, deleted.body], [200, { status: 'handled', reason: `installation ${instB.id} was deleted on GitHub and is no longer connected; its projects stop building` }]);
    t.equal(await m.GithubInstallation.countDocuments({ _id: instB.id }), 0, 'unlinked');
  });

  t.test('should unlink an installation for owners and admins of its organization only', async (t) => {
    const other = await dash(api, 'DELETE', `/github/installations/${instA.id}`, { auth: orgB.auth });
    t.same([other.status, other.body], [404, { error: 'not_found', message: 'installation not found' }]);
    const res = await dash(api, 'DELETE', `/github/installations/${instA.id}`, { auth: orgA.auth });
    t.equal(res.status, 204);
    const refused = await api.request('POST', '/projects', { key: keyA, body: { name: 'Gone', slug: 'acme-gone', github_repo: 'AcmeCorp/Private-Docs' } });
    t.same([refused.status, refused.body], [422, notAccessible('AcmeCorp/Private-Docs')]);
  });

  t.test('should answer clearly when the server has no GitHub App', async (t) => {
    const saved = api.cp.deps.env;
    api.cp.deps.env = { ...saved, GITHUB_APP_ID: undefined };
    t.teardown(() => { api.cp.deps.env = saved; });
    const off = {
      error: 'github_not_configured',
      message: 'GitHub repositories are not enabled on this server: its operator has not configured a GitHub App (GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY, GITHUB_APP_SLUG, GITHUB_APP_CLIENT_ID, GITHUB_APP_CLIENT_SECRET)',
    };
    const created = await api.request('POST', '/projects', { key: keyA, body: { name: 'Off', slug: 'gh-off', github_repo: 'AcmeCorp/Private-Docs' } });
    t.same([created.status, created.body], [422, off]);
    const link = await dash(api, 'GET', '/github/install-link', { auth: orgA.auth });
    t.same([link.status, link.body], [422, off]);
    const listed = (await dash(api, 'GET', '/github/installations', { auth: orgA.auth })).body;
    t.same([listed.enabled, listed.app_url], [false, null]);
  });
});
