import t from 'tap';
import { startTestApi } from '../helpers/api.ts';
import { dash, dashTenant } from '../helpers/dashboard.ts';
import { envWithGithub, startGithubStandIn } from '../helpers/github-stand-in.ts';

t.test('dashboard projects', async (t) => {
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const api = await startTestApi({ env: envWithGithub(gh) });
  t.teardown(() => api.close());
  const origin = new URL(api.url).origin;

  t.test('should create a project with a slug made from its name, its Git URL and site URL', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'pro');
    await gh.connect(api.cp.m, orgId, 'acme/docs');
    const name = `Acme Docs ${process.pid}`;
    const res = await dash(api, 'POST', '/projects', { auth, body: { name } });
    t.equal(res.status, 201, res.text);
    const slug = `acme-docs-${process.pid}`;
    t.same(res.body, {
      id: res.body.id, name, slug, status: 'pending', created_at: api.clock.now.toISOString(), github_repo: null, custom_domain: null,
      github_branch: 'main', last_deploy_at: null, git_url: `${origin}/git/${slug}.git`, site_url: `http://${slug}.localhost:4100`, last_deployment: null, live_commit_sha: null,
    });
    const second = await dash(api, 'POST', '/projects', { auth, body: { name } });
    t.equal(second.body.slug, `${slug}-2`, 'a taken slug gets a suffix');
    const own = await dash(api, 'POST', '/projects', { auth, body: { name: 'GitHub', slug: `gh-${process.pid}`, github_repo: 'acme/docs' } });
    t.same([own.body.git_url, own.body.github_repo], [null, 'acme/docs']);
    const listed = await dash(api, 'GET', '/projects', { auth });
    // Created at the same instant (the test clock stands still), so compared as a set.
    t.same(listed.body.data.map((p: any) => p.slug).sort(), [slug, `${slug}-2`, `gh-${process.pid}`]);
  });

  t.test('should say whether a slug is available', async (t) => {
    const { auth } = await dashTenant(api, 'pro');
    const { body: project } = await dash(api, 'POST', '/projects', { auth, body: { name: 'x', slug: `taken-${process.pid}` } });
    t.same((await dash(api, 'GET', `/slug-available?slug=${project.slug}`, { auth })).body, { available: false, reason: 'taken', message: `"${project.slug}" is already taken` });
    t.same((await dash(api, 'GET', '/slug-available?slug=Bad_Slug', { auth })).body, { available: false, reason: 'invalid', message: 'must be 1-63 lowercase letters, digits or hyphens, not starting or ending with a hyphen' });
    t.same((await dash(api, 'GET', `/slug-available?slug=free-${process.pid}`, { auth })).body, { available: true });
    const missing = await dash(api, 'GET', '/slug-available', { auth });
    t.same([missing.status, missing.body], [400, { error: 'invalid_request', message: 'Slug is required' }]);
  });

  t.test('should rename the slug, refusing a taken one', async (t) => {
    const { auth } = await dashTenant(api, 'pro');
    const { body: a } = await dash(api, 'POST', '/projects', { auth, body: { name: 'a', slug: `ren-a-${process.pid}` } });
    const { body: b } = await dash(api, 'POST', '/projects', { auth, body: { name: 'b', slug: `ren-b-${process.pid}` } });
    const taken = await dash(api, 'PATCH', `/projects/${a.id}`, { auth, body: { slug: b.slug } });
    t.same([taken.status, taken.body], [409, { error: 'conflict', message: `Slug: "${b.slug}" is already taken` }]);
    const renamed = await dash(api, 'PATCH', `/projects/${a.id}`, { auth, body: { slug: `ren-c-${process.pid}`, name: 'Renamed', github_branch: 'docs' } });
    t.same([renamed.status, renamed.body.slug, renamed.body.name, renamed.body.github_branch, renamed.body.git_url], [200, `ren-c-${process.pid}`, 'Renamed', 'docs', `${origin}/git/ren-c-${process.pid}.git`]);
    t.same((await dash(api, 'GET', `/slug-available?slug=ren-a-${process.pid}`, { auth })).body, { available: true }, 'the old slug is free');
    const bad = await dash(api, 'PATCH', `/projects/${a.id}`, { auth, body: { custom_domain: 'x.com' } });
    t.same([bad.status, bad.body], [400, { error: 'invalid_request', message: 'Custom domain is not expected here' }]);
    t.equal((await dash(api, 'DELETE', `/projects/${b.id}`, { auth })).status, 204);
    t.equal((await dash(api, 'GET', `/projects/${b.id}`, { auth })).status, 404);
  });

  t.test('should answer 404 for another organization\'s project and keep members to reading', async (t) => {
    const a = await dashTenant(api, 'pro');
    const b = await dashTenant(api, 'pro');
    const { body: project } = await dash(api, 'POST', '/projects', { auth: a.auth, body: { name: 'mine' } });
    for (const [method, body] of [['GET', undefined], ['PATCH', { name: 'x' }], ['DELETE', undefined]] as const) {
      const res = await dash(api, method, `/projects/${project.id}`, { auth: b.auth, body });
      t.same([res.status, res.body], [404, { error: 'not_found', message: 'project not found' }], method);
    }
    t.same((await dash(api, 'GET', '/projects', { auth: b.auth })).body, { data: [] });
    const member = await addMember(a.orgId);
    t.equal((await dash(api, 'GET', `/projects/${project.id}`, { auth: member })).status, 200);
    const refused = await dash(api, 'DELETE', `/projects/${project.id}`, { auth: member });
    t.same([refused.status, refused.body], [403, { error: 'forbidden_role', message: 'This action needs the owner or admin role; you are a member' }]);
  });

  t.test('should apply the plan\'s project limit', async (t) => {
    const { auth } = await dashTenant(api, 'free');
    t.equal((await dash(api, 'POST', '/projects', { auth, body: { name: 'one' } })).status, 201);
    const two = await dash(api, 'POST', '/projects', { auth, body: { name: 'two' } });
    t.equal(two.status, 402);
    t.same(two.body.error, 'plan_limit_reached');
    t.equal(two.body.upgrade_url, 'https://folio.dev/pricing');
  });

  async function addMember(orgId: string) {
    const { addUser, signIn } = await import('../helpers/dashboard.ts');
    const u = await addUser(api, orgId, 'member');
    return signIn(api, u.email);
  }
});
