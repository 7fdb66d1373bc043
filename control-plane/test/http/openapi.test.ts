import t from 'tap';
import { apiRoutes } from '../../src/api/routes.ts';
import { startTestApi } from '../helpers/api.ts';

t.test('OpenAPI document, CORS and the error edge', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());

  t.test('should describe every registered route, publicly', async (t) => {
    const res = await api.request('GET', '/openapi.json');
    t.equal(res.status, 200);
    const doc = res.body;
    t.equal(doc.openapi, '3.1.0');
    t.equal(doc.servers[0].url, api.url);
    const registered = apiRoutes().map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`).sort();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`)).sort();
    t.same(documented, registered);
    const create = doc.paths['/projects'].post;
    t.same(create.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/CreateProject' });
    t.same(doc.components.schemas.CreateProject.required, ['name', 'slug']);
    t.same(create.responses['201'].content['application/json'].schema, { $ref: '#/components/schemas/Project' });
    t.same(doc.components.schemas.Project.properties.status.enum, ['pending', 'building', 'active', 'failed']);
    t.same(create['x-required-scope'], 'projects:write');
    t.same(doc.paths['/projects/{id}'].get.parameters[0], { name: 'id', in: 'path', required: true, description: 'Resource id (uuid)', schema: { type: 'string', description: 'Resource id (uuid)' } });
    t.ok(doc.components.schemas.Error, 'the error object is described');
  });

  t.test('should fail a response that does not match its declared schema', async (t) => {
    const { key } = await api.tenant('pro');
    const p = await api.project(key);
    await api.cp.m.Project.collection.updateOne({ _id: p.id as any }, { $set: { status: 'weird' } });
    const res = await api.request('GET', `/projects/${p.id}`, { key });
    t.same([res.status, res.body], [500, { error: 'internal_error', message: 'Internal server error' }], 'the check is live, and no internals leak');
  });

  t.test('should answer CORS preflights and expose headers', async (t) => {
    const res = await fetch(`${api.url}/projects`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
    t.equal(res.status, 204);
    t.equal(res.headers.get('access-control-allow-origin'), 'https://app.example');
    t.match(res.headers.get('access-control-allow-headers') ?? '', /Authorization/);
    t.match(res.headers.get('access-control-allow-methods') ?? '', /PATCH/);
    const err = await fetch(`${api.url}/projects`, { headers: { origin: 'https://app.example' } });
    t.equal(err.status, 401);
    t.equal(err.headers.get('access-control-allow-origin'), 'https://app.example', 'errors carry CORS headers too');
  });
});
