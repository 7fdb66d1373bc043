import t from 'tap';
import { startTestApi } from '../helpers/api.ts';
import { envWithGithub, startGithubStandIn } from '../helpers/github-stand-in.ts';

t.test('projects API', async (t) => {
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const api = await startTestApi({ env: envWithGithub(gh) });
  t.teardown(() => api.close());

  t.test('should create, get, list, update and delete a project', async (t) => {
    const { key, orgId } = await api.tenant('pro');
    await gh.connect(api.cp.m, orgId, 'acme/docs');
    const created = await api.request('POST', '/projects', { key, body: { name: 'Acme Docs', slug: 'acme-docs-crud', github_repo: 'acme/docs' } });
    t.equal(created.status, 201);
    const p = created.body;
    t.match(p.id, /^[0-9a-f-]{36}$/);
    t.equal(created.headers.get('location'), `${api.url}/projects/${p.id}`);
    t.same(p, {
      id: p.id, name: 'Acme Docs', slug: 'acme-docs-crud', status: 'pending', created_at: p.created_at,
      github_repo: 'acme/docs', custom_domain: null, github_branch: 'main', last_deploy_at: null,
    });
    t.same((await api.request('GET', `/projects/${p.id}`, { key })).body, p);

    const patched = await api.request('PATCH', `/projects/${p.id}`, { key, body: { name: 'Acme', github_branch: 'release/v2' } });
    t.equal(patched.status, 200);
    t.same(patched.body, { ...p, name: 'Acme', github_branch: 'release/v2' });
    const onlyName = await api.request('PATCH', `/projects/${p.id}`, { key, body: { name: 'Acme 2' } });
    t.equal(onlyName.body.github_branch, 'release/v2', 'only supplied fields change');

    const managed = await api.project(key);
    const moved = await api.request('PATCH', `/projects/${managed.id}`, { key, body: { github_repo: 'acme/docs' } });
    t.same([moved.status, moved.body], [400, { error: 'invalid_request', message: 'github_repo: Unexpected for a project whose repository the platform hosts; expected a project created with github_repo' }]);
    const reconnected = await api.request('PATCH', `/projects/${p.id}`, { key, body: { github_repo: 'ACME/DOCS' } });
    t.same([reconnected.status, reconnected.body.github_repo], [200, 'acme/docs'], 'reconnected under GitHub\'s spelling');

    const del = await api.request('DELETE', `/projects/${p.id}`, { key });
    t.equal(del.status, 204);
    t.equal(del.text, '');
    t.same((await api.request('GET', `/projects/${p.id}`, { key })).body, { error: 'not_found', message: 'project not found' });
  });

  t.test('should delete the project\'s pages and deployments with it', async (t) => {
    const { key } = await api.tenant('pro');
    const p = await api.project(key);
    await api.cp.m.Page.create({ project_id: p.id, path: '/a', title: 'A' });
    await api.cp.m.Deployment.create({ project_id: p.id });
    await api.request('DELETE', `/projects/${p.id}`, { key });
    t.equal(await api.cp.m.Page.countDocuments({ project_id: p.id }), 0);
    t.equal(await api.cp.m.Deployment.countDocuments({ project_id: p.id }), 0);
  });

  t.test('should list newest first with total, limit and status filter', async (t) => {
    const { key } = await api.tenant('pro');
    const made = [];
    for (let i = 0; i < 4; i++) {
      api.clock.now = new Date(Date.UTC(2026, 0, 1, 0, 0, i));
      made.push(await api.project(key));
    }
    api.clock.now = new Date();
    await api.cp.m.Project.updateOne({ _id: made[1].id }, { $set: { status: 'active' } });
    const all = await api.request('GET', '/projects', { key });
    t.same(all.body.data.map((p: any) => p.id), made.map((p) => p.id).reverse());
    t.equal(all.body.total, 4);
    const two = await api.request('GET', '/projects?limit=2', { key });
    t.same(two.body.data.map((p: any) => p.id), [made[3].id, made[2].id]);
    t.equal(two.body.total, 4, 'total counts every match, not the page');
    const active = await api.request('GET', '/projects?status=active', { key });
    t.same(active.body, { data: [{ ...made[1], status: 'active' }], total: 1 });
  });

  t.test('should default limit to 20 and cap it at 100', async (t) => {
    const { key } = await api.tenant('pro');
    for (let i = 0; i < 21; i++) await api.project(key);
    t.equal((await api.request('GET', '/projects', { key })).body.data.length, 20);
    t.equal((await api.request('GET', '/projects?limit=100', { key })).body.data.length, 21);
    for (const bad of ['0', '101', 'abc', '2.5', '-1']) {
      t.same((await api.request('GET', `/projects?limit=${bad}`, { key })).body,
        { error: 'invalid_request', message: 'limit: must be an integer from 1 to 100' }, `limit=${bad}`);
    }
    t.same((await api.request('GET', '/projects?status=done', { key })).body,
      { error: 'invalid_request', message: 'status: must be one of pending, building, active, failed' });
  });

  t.test('should reject invalid create bodies naming the field and rule', async (t) => {
    const { key } = await api.tenant('enterprise');
    const cases: [unknown, string][] = [
      [{ slug: 'a' }, 'name: Required'],
      [{ name: '', slug: 'a' }, 'name: must be 1-80 characters'],
      [{ name: 'x'.repeat(81), slug: 'a' }, 'name: must be 1-80 characters'],
      [{ name: 42, slug: 'a' }, 'name: Unexpected number; expected string'],
      [{ name: 'A' }, 'slug: Required'],
      [{ name: 'A', slug: 'Has Caps' }, 'slug: must be 1-63 lowercase letters, digits or hyphens, not starting or ending with a hyphen'],
      [{ name: 'A', slug: 'under_score' }, 'slug: must be 1-63 lowercase letters, digits or hyphens, not starting or ending with a hyphen'],
      [{ name: 'A', slug: '-lead' }, 'slug: must be 1-63 lowercase letters, digits or hyphens, not starting or ending with a hyphen'],
      [{ name: 'A', slug: 'ok', github_repo: 'nodash' }, 'github_repo: must be in owner/name form'],
      [{ name: 'A', slug: 'ok', github_repo: 'a/b/c' }, 'github_repo: must be in owner/name form'],
      [{ name: 'A', slug: 'ok', github_repo: 'a/..' }, 'github_repo: must be in owner/name form'],
      [{ name: 'A', slug: 'ok', extra: 1 }, 'extra: Unexpected key'],
      [{ name: { $gt: '' }, slug: 'ok' }, 'name.$gt: Unexpected key; operator and prototype keys are not allowed'],
      [JSON.parse('{"name":"A","slug":"ok","__proto__":{"admin":true}}'), '__proto__: Unexpected key; operator and prototype keys are not allowed'],
      [[1, 2], 'body: Unexpected array; expected object'],
    ];
    for (const [body, message] of cases) {
      const res = await api.request('POST', '/projects', { key, body });
      t.equal(res.status, 400, JSON.stringify(body));
      t.same(res.body, { error: 'invalid_request', message }, JSON.stringify(body));
    }
    t.equal(await api.cp.m.Project.countDocuments({ slug: 'ok' }), 0, 'nothing was created');
  });

  t.test('should answer malformed JSON and oversized bodies with the error shape', async (t) => {
    const { key } = await api.tenant('pro');
    const bad = await api.request('POST', '/projects', { key, raw: '{"name": "A",', headers: { 'content-type': 'application/json' } });
    t.equal(bad.status, 400);
    t.same(bad.body, { error: 'invalid_request', message: 'body: Malformed JSON; expected a JSON object' });
    const big = await api.request('POST', '/projects', { key, raw: JSON.stringify({ name: 'x'.repeat(1_100_000), slug: 'big' }), headers: { 'content-type': 'application/json' } });
    t.equal(big.status, 413);
    t.same(big.body, { error: 'payload_too_large', message: 'Request body exceeds the 1048576 byte limit' });
    const noType = await api.request('POST', '/projects', { key, raw: Buffer.from(JSON.stringify({ name: 'No type', slug: `no-type-${process.pid}` })) });
    t.equal(noType.status, 201, 'a body without Content-Type is read as JSON');
  });

  t.test('should refuse a taken slug with 409, across organizations', async (t) => {
    const a = await api.tenant('pro');
    const b = await api.tenant('pro');
    await api.project(a.key, { slug: 'taken-slug' });
    const res = await api.request('POST', '/projects', { key: b.key, body: { name: 'B', slug: 'taken-slug' } });
    t.equal(res.status, 409);
    t.same(res.body, { error: 'conflict', message: 'slug: "taken-slug" is already taken' });
  });

  t.test('should refuse slug and custom_domain in a PATCH as dashboard operations', async (t) => {
    const { key } = await api.tenant('pro');
    const p = await api.project(key);
    const cases: [unknown, string][] = [
      [{ slug: 'new' }, 'slug: cannot be changed through the API; renames are a dashboard operation'],
      [{ custom_domain: 'docs.acme.com' }, 'custom_domain: cannot be changed through the API; custom domains are a dashboard operation'],
      [{ name: '' }, 'name: must be 1-80 characters'],
      [{ github_branch: 'bad..branch' }, 'github_branch: Unexpected ".."; expected a Git branch name'],
      [{ status: 'active' }, 'status: Unexpected key'],
    ];
    for (const [body, message] of cases) {
      t.same((await api.request('PATCH', `/projects/${p.id}`, { key, body })).body, { error: 'invalid_request', message }, JSON.stringify(body));
    }
    t.same((await api.request('GET', `/projects/${p.id}`, { key })).body, p, 'nothing changed');
  });

  t.test('should answer unknown routes and methods with the error shape', async (t) => {
    const { key } = await api.tenant();
    t.same((await api.request('GET', '/nope', { key })).body, { error: 'not_found', message: 'No route for GET /v1/nope' });
    const put = await api.request('PUT', '/projects', { key, body: {} });
    t.equal(put.status, 405);
    t.same(put.body, { error: 'method_not_allowed', message: 'Unexpected method PUT for this path; expected one of GET, HEAD, POST' });
    t.equal(put.headers.get('allow'), 'GET, HEAD, POST');
  });
});
