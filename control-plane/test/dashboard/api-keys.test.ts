import t from 'tap';
import { startTestApi } from '../helpers/api.ts';
import { dash, dashTenant } from '../helpers/dashboard.ts';

const FORBIDDEN_ROLE = { error: 'forbidden_role', message: 'This action needs the owner or admin role; you are a member' };

t.test('dashboard API keys', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());

  t.test('should create a key shown once that works on /v1, and record its last use', async (t) => {
    const { auth } = await dashTenant(api, 'pro');
    const created = await dash(api, 'POST', '/api-keys', { auth, body: { name: 'CI' } });
    t.equal(created.status, 201, created.text);
    const { key, secret } = created.body;
    t.match(secret, /^svc_[a-z0-9]{16}_[A-Za-z0-9]{32}$/);
    t.same(key, { id: key.id, name: 'CI', prefix: `svc_${key.id}`, scopes: 'all', created_at: api.clock.now.toISOString(), expires_at: null, expired: false, last_used_at: null });
    t.ok(secret.startsWith(key.prefix));
    const v1 = await api.request('GET', '/projects', { key: secret });
    t.equal(v1.status, 200, 'the new key works on /v1');
    const listed = await dash(api, 'GET', '/api-keys', { auth });
    t.same(listed.body.data.map((k: any) => [k.id, k.last_used_at]), [[key.id, api.clock.now.toISOString()]]);
    t.notMatch(listed.text, secret.slice(-32), 'the secret is never listed');
  });

  t.test('should create scoped and expiring keys and refuse bad input with exact bodies', async (t) => {
    const { auth } = await dashTenant(api, 'pro');
    const scoped = await dash(api, 'POST', '/api-keys', { auth, body: { name: 'read', scopes: ['projects:read'] } });
    t.same(scoped.body.key.scopes, ['projects:read']);
    const write = await api.request('POST', '/projects', { key: scoped.body.secret, body: { name: 'x', slug: `s-${Date.now()}` } });
    t.same([write.status, write.body], [403, { error: 'forbidden', message: 'This API key lacks the scope projects:write' }]);
    const cases: [unknown, string][] = [
      [{}, 'Name is required'],
      [{ name: '' }, 'Name must be 1-80 characters'],
      [{ name: 'x', scopes: ['admin'] }, 'Scopes must be "all" or a list of scopes'],
      [{ name: 'x', scopes: [] }, 'Scopes must list at least one scope, or be "all"'],
      [{ name: 'x', expires_at: 'tomorrow' }, 'Expiry date must be an ISO 8601 date-time such as 2027-01-31T00:00:00Z'],
      [{ name: 'x', expires_at: '2000-01-01T00:00:00Z' }, 'Expiry date must be in the future'],
      [{ name: 'x', secret: 'mine' }, 'Secret is not expected here'],
    ];
    for (const [body, message] of cases) {
      const res = await dash(api, 'POST', '/api-keys', { auth, body });
      t.same([res.status, res.body], [400, { error: 'invalid_request', message }], JSON.stringify(body));
    }
  });

  t.test('should edit names and scopes, and refuse to edit an expired key', async (t) => {
    const { auth } = await dashTenant(api, 'pro');
    const soon = new Date(api.clock.now.getTime() + 60_000).toISOString();
    const { body: { key, secret } } = await dash(api, 'POST', '/api-keys', { auth, body: { name: 'temp', scopes: ['projects:read'], expires_at: soon } });
    const edited = await dash(api, 'PATCH', `/api-keys/${key.id}`, { auth, body: { name: 'renamed', scopes: 'all' } });
    t.same([edited.status, edited.body.name, edited.body.scopes], [200, 'renamed', 'all']);
    t.equal((await api.request('POST', '/projects', { key: secret, body: { name: 'x', slug: `k-${Date.now()}` } })).status, 201, 'the new scopes apply at once');
    const start = api.clock.now;
    t.teardown(() => { api.clock.now = start; });
    api.clock.now = new Date(start.getTime() + 60_000);
    const listed = await dash(api, 'GET', '/api-keys', { auth });
    t.same(listed.body.data.map((k: any) => k.expired), [true]);
    const refused = await dash(api, 'PATCH', `/api-keys/${key.id}`, { auth, body: { name: 'again' } });
    t.same([refused.status, refused.body], [409, { error: 'key_expired', message: 'This API key has expired; expired keys cannot be edited or renewed, create a new one' }]);
    t.equal((await dash(api, 'DELETE', `/api-keys/${key.id}`, { auth })).status, 204, 'an expired key can be deleted');
    t.same((await dash(api, 'GET', '/api-keys', { auth })).body, { data: [] });
  });

  t.test('should stop a deleted key at once', async (t) => {
    const { auth } = await dashTenant(api, 'pro');
    const { body: { key, secret } } = await dash(api, 'POST', '/api-keys', { auth, body: { name: 'gone' } });
    t.equal((await api.request('GET', '/projects', { key: secret })).status, 200);
    t.equal((await dash(api, 'DELETE', `/api-keys/${key.id}`, { auth })).status, 204);
    t.same((await api.request('GET', '/projects', { key: secret })).body, { error: 'unauthorized', message: 'Invalid API key' });
    const again = await dash(api, 'DELETE', `/api-keys/${key.id}`, { auth });
    t.same([again.status, again.body], [404, { error: 'not_found', message: `API key "${key.id}" not found` }]);
  });

  t.test('should hide another organization\'s keys and keep members out', async (t) => {
    const a = await dashTenant(api, 'pro');
    const b = await dashTenant(api, 'pro');
    const { body: { key } } = await dash(api, 'POST', '/api-keys', { auth: a.auth, body: { name: 'a' } });
    t.same((await dash(api, 'GET', '/api-keys', { auth: b.auth })).body, { data: [] });
    for (const [method, body] of [['PATCH', { name: 'x' }], ['DELETE', undefined]] as const) {
      const res = await dash(api, method, `/api-keys/${key.id}`, { auth: b.auth, body });
      t.same([res.status, res.body], [404, { error: 'not_found', message: `API key "${key.id}" not found` }], method);
    }
    const member = await dashTenant(api, 'pro', 'member');
    for (const [method, path] of [['GET', '/api-keys'], ['POST', '/api-keys'], ['PATCH', `/api-keys/${key.id}`], ['DELETE', `/api-keys/${key.id}`]]) {
      const res = await dash(api, method, path, { auth: member.auth, body: method === 'GET' ? undefined : { name: 'x' } });
      t.same([res.status, res.body], [403, FORBIDDEN_ROLE], `${method} ${path}`);
    }
  });
});
