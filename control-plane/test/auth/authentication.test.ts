import t from 'tap';
import { apiRoutes } from '../../src/api/routes.ts';
import { SCOPES } from '../../src/auth/scopes.ts';
import { revokeKey } from '../../src/admin/api-keys.ts';
import { startTestApi } from '../helpers/api.ts';
import { SAMPLE_BODIES, samplePath } from '../helpers/route-samples.ts';

/** The error body a route answers: SCIM routes answer SCIM error bodies that keep `error` and `message`. */
function errorBody(route: { tags?: string[] }, status: number, error: string, message: string) {
  return route.tags?.includes('SCIM')
    ? { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: String(status), detail: message, error, message }
    : { error, message };
}

t.test('authentication and scopes', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const routes = apiRoutes().filter((r) => r.auth !== 'none');

  t.test('should answer 401 for a missing, malformed, unknown or expired key on every route', async (t) => {
    const { orgId, key } = await api.tenant('enterprise');
    const project = await api.project(key);
    const expired = await api.key(orgId, undefined, new Date(api.clock.now.getTime() + 60_000));
    const unknown = key.replace(/.{4}$/, 'zzzz');
    const cases: [Record<string, string>, string][] = [
      [{}, 'Missing Authorization header; expected "Bearer <API key>"'],
      [{ authorization: key }, 'Malformed Authorization header; expected "Bearer <API key>"'],
      [{ authorization: 'Basic abc' }, 'Malformed Authorization header; expected "Bearer <API key>"'],
      [{ authorization: 'Bearer svc_short' }, 'Malformed API key; expected svc_<id>_<secret>'],
      [{ authorization: `Bearer ${unknown}` }, 'Invalid API key'],
    ];
    for (const route of routes) {
      for (const [headers, message] of cases) {
        const res = await api.request(route.method.toUpperCase(), samplePath(route, project.id), { headers, body: SAMPLE_BODIES[route.operationId] });
        t.same([res.status, res.body], [401, errorBody(route, 401, 'unauthorized', message)], `${route.operationId} ${JSON.stringify(headers)}`);
      }
    }
    t.equal((await api.request('GET', '/me/entitlements', { key: expired })).status, 200, 'works before expiry');
    api.clock.now = new Date(api.clock.now.getTime() + 60_000);
    t.same((await api.request('GET', '/me/entitlements', { key: expired })).body, { error: 'unauthorized', message: 'API key expired' }, 'stops at the moment it passes');
    api.clock.now = new Date();
  });

  t.test('should answer 403 on every scoped route for a key without that scope', async (t) => {
    const { orgId, key } = await api.tenant('enterprise');
    const project = await api.project(key);
    for (const route of routes.filter((r) => r.auth !== 'key')) {
      const others = SCOPES.filter((s) => s !== route.auth);
      const restricted = await api.key(orgId, [...others]);
      const res = await api.request(route.method.toUpperCase(), samplePath(route, project.id), { key: restricted, body: SAMPLE_BODIES[route.operationId] });
      t.same([res.status, res.body], [403, errorBody(route, 403, 'forbidden', `This API key lacks the scope ${route.auth}`)], route.operationId);
      const allowed = await api.key(orgId, [route.auth as string]);
      const ok = await api.request(route.method.toUpperCase(), samplePath(route, project.id), { key: allowed, body: SAMPLE_BODIES[route.operationId] });
      t.not(ok.status, 403, `${route.operationId} passes with only ${route.auth}`);
    }
  });

  t.test('should give a key created with no scopes every scope', async (t) => {
    const { orgId } = await api.tenant('pro');
    const full = await api.key(orgId, []);
    t.equal((await api.request('POST', '/projects', { key: full, body: { name: 'Full', slug: `full-${process.pid}` } })).status, 201);
    t.same((await api.cp.m.ApiKey.findOne({ org_id: orgId }).lean())!.scopes, null, 'stored as full access, so scopes added later apply too');
  });

  t.test('should stop a revoked key at once', async (t) => {
    const { orgId } = await api.tenant();
    const key = await api.key(orgId);
    t.equal((await api.request('GET', '/me/entitlements', { key })).status, 200);
    await revokeKey(api.cp.m, key.split('_')[1]);
    t.same((await api.request('GET', '/me/entitlements', { key })).body, { error: 'unauthorized', message: 'Invalid API key' });
  });

  t.test('should store no usable key material', async (t) => {
    const { orgId, key } = await api.tenant();
    const record = await api.cp.m.ApiKey.findOne({ org_id: orgId }).lean();
    const secret = key.split('_')[2];
    t.notOk(JSON.stringify(record).includes(secret), 'the secret is not in the record');
    t.match(record!.secret_hash, /^[0-9a-f]{64}$/);
  });

  t.test('should answer another organization\'s project exactly as a missing one on every project route', async (t) => {
    const owner = await api.tenant('enterprise');
    const other = await api.tenant('enterprise');
    const project = await api.project(owner.key);
    let leaks = 0;
    // SCIM's `:id` is a user or group of the key's own organization, not a project.
    for (const route of routes.filter((r) => r.path.includes(':id') && !r.path.startsWith('/scim/'))) {
      const path = samplePath(route, project.id);
      const foreign = await api.request(route.method.toUpperCase(), path, { key: other.key, body: SAMPLE_BODIES[route.operationId] });
      const missing = await api.request(route.method.toUpperCase(), samplePath(route, '6f1c1b9e-0000-4000-8000-000000000000'), { key: other.key, body: SAMPLE_BODIES[route.operationId] });
      if (foreign.status !== 404) leaks++;
      t.same([foreign.status, foreign.body], [missing.status, missing.body], route.operationId);
      t.same(foreign.body, { error: 'not_found', message: 'project not found' }, route.operationId);
    }
    t.equal(leaks, 0);
    t.same((await api.request('GET', `/projects/${project.id}`, { key: owner.key })).body.id, project.id, 'the owner still sees it');
    t.same((await api.request('GET', '/projects', { key: other.key })).body, { data: [], total: 0 }, 'no cross-organization listing');
  });
});
