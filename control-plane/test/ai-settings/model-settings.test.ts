import net from 'node:net';
import t from 'tap';
import { aiSettingsModel } from '../../src/ai-settings/ai-settings-store.ts';
import { parseEnv } from '../../src/env.ts';
import { startTestApi } from '../helpers/api.ts';
import { addUser, dash, dashTenant, signIn } from '../helpers/dashboard.ts';
import { startStandIn } from '../assistant/llm-stand-in.ts';

const KEY = 'sk-org-secret-key-7f3a9c2e';

t.test('model settings', async (t) => {
  const llm = await startStandIn();
  t.teardown(() => llm.close());
  const standIn = new URL(llm.url).host;
  const api = await startTestApi({ env: parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', AI_MODEL_PRIVATE_HOSTS: standIn }) });
  t.teardown(() => api.close());
  const owner = await dashTenant(api, 'free');
  const body = { base_url: llm.url, model: 'stand-in-1', api_key: KEY };

  t.test('should start with no model, and say so to the dashboard and to an API key', async (t) => {
    const res = await dash(api, 'GET', '/ai-settings', { auth: owner.auth });
    t.same([res.status, res.body], [200, {
      organization: null, platform_default: { available: false, model: null },
      features: [{ feature: 'assistant', description: res.body.features[0].description, source: 'none' }],
    }]);
    const key = await api.key(owner.orgId);
    const status = await api.request('GET', '/ai/model', { key });
    t.same([status.status, status.body], [200, { configured: false, features: [{ feature: 'assistant', configured: false, source: 'none' }] }]);
  });

  t.test('should save the model with the key sealed, and never answer the key', async (t) => {
    const res = await dash(api, 'PUT', '/ai-settings', { auth: owner.auth, body });
    t.equal(res.status, 200);
    t.same(res.body.organization, { base_url: llm.url, model: 'stand-in-1', api_key: { set: true, hint: '…9c2e' }, features: ['assistant'], updated_at: res.body.organization.updated_at });
    t.notMatch(res.text, KEY);
    const row = await aiSettingsModel(api.cp.m).findOne({ org_id: owner.orgId }).lean();
    t.notMatch(JSON.stringify(row), KEY, 'the key is not stored in clear');
    t.match(row!.key_sealed, /^v1\./);
    const audit = await api.cp.m.AuditEntry.find({ org_id: owner.orgId, action: 'ai_model.set' }).lean();
    t.same(audit.map((a) => [a.target_type, a.target_name, a.details]), [['ai_model', 'stand-in-1', { base_url: new URL(llm.url).origin, key: 'replaced' }]], 'the change is in the audit log');
    t.notMatch(JSON.stringify(audit), KEY, 'without the key');
    const again = await dash(api, 'GET', '/ai-settings', { auth: owner.auth });
    t.notMatch(again.text, KEY);
    t.same(again.body.features[0].source, 'organization');
    const status = await api.request('GET', '/ai/model', { key: await api.key(owner.orgId, ['analytics:read']) });
    t.same(status.body, { configured: true, features: [{ feature: 'assistant', configured: true, source: 'organization' }] });
    t.notMatch(status.text, KEY);
    t.notMatch(status.text, llm.url, 'an API key does not learn the endpoint');
  });

  t.test('should keep the key when it is omitted, and remove it with null', async (t) => {
    const kept = await dash(api, 'PUT', '/ai-settings', { auth: owner.auth, body: { base_url: llm.url, model: 'stand-in-2' } });
    t.same([kept.body.organization.model, kept.body.organization.api_key], ['stand-in-2', { set: true, hint: '…9c2e' }]);
    const removed = await dash(api, 'PUT', '/ai-settings', { auth: owner.auth, body: { base_url: llm.url, model: 'stand-in-2', api_key: null } });
    t.same(removed.body.organization.api_key, { set: false, hint: null });
    await dash(api, 'PUT', '/ai-settings', { auth: owner.auth, body });
  });

  t.test('should test the connection: success, then the reason in people\'s words', async (t) => {
    llm.mode = 'grounded';
    const ok = await dash(api, 'POST', '/ai-settings/test', { auth: owner.auth });
    t.same([ok.status, ok.body.ok, ok.body.reply], [200, true, 'From the docs: I could not find that in these docs.']);
    t.match(ok.body.message, /^Connected: "stand-in-1" answered in \d+\.\d s\.$/);
    t.equal(llm.requests.at(-1)!.headers.authorization, `Bearer ${KEY}`, 'the sealed key is what is sent');
    t.equal(llm.requests.at(-1)!.body.max_tokens, 5);
    llm.mode = 'unauthorized';
    const denied = await dash(api, 'POST', '/ai-settings/test', { auth: owner.auth });
    t.same(denied.body, { ok: false, message: `${standIn} refused the API key (HTTP 401). Check the key, or paste a new one.`, reply: null, first_token_ms: null });
    llm.mode = 'failing';
    const failing = await dash(api, 'POST', '/ai-settings/test', { auth: owner.auth });
    t.same(failing.body.message, `${standIn} had an error answering (HTTP 500). Try again in a moment.`);
    llm.mode = 'grounded';
    await dash(api, 'PUT', '/ai-settings', { auth: owner.auth, body: { ...body, base_url: `${llm.url}/nowhere` } });
    const missing = await dash(api, 'POST', '/ai-settings/test', { auth: owner.auth });
    t.same(missing.body.message, `${standIn} has no chat endpoint at this base URL, or no model named "stand-in-1" (HTTP 404). The base URL usually ends in /v1.`);
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => { const s = net.createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as net.AddressInfo).port; s.close(() => resolve(p)); }); });
    const closed = `http://127.0.0.1:${port}/v1`;
    const other = await startTestApi({ env: parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', AI_MODEL_PRIVATE_HOSTS: `127.0.0.1:${port}` }) });
    t.teardown(() => other.close());
    const someone = await dashTenant(other, 'free');
    await dash(other, 'PUT', '/ai-settings', { auth: someone.auth, body: { ...body, base_url: closed } });
    const unreachable = await dash(other, 'POST', '/ai-settings/test', { auth: someone.auth });
    t.same(unreachable.body, { ok: false, message: `Could not connect to 127.0.0.1:${port} (ECONNREFUSED). Check the base URL and that the server is running and reachable from the platform.`, reply: null, first_token_ms: null });
    await dash(api, 'PUT', '/ai-settings', { auth: owner.auth, body });
  });

  t.test('should refuse bad settings with exact bodies', async (t) => {
    const cases: [unknown, object][] = [
      [{ model: 'm' }, { error: 'invalid_request', message: 'Base URL is required' }],
      [{ base_url: 'ftp://example.com/v1', model: 'm' }, { error: 'invalid_request', message: 'Base URL must be an http(s) URL such as https://api.openai.com/v1' }],
      [{ base_url: 'https://api.openai.com/v1', model: ' ' }, { error: 'invalid_request', message: 'Model name is required' }],
      [{ base_url: 'https://api.openai.com/v1', model: 'm', api_key: '' }, { error: 'invalid_request', message: 'API key must not be empty; send null to remove the key' }],
      [{ base_url: 'https://api.openai.com/v1', model: 'm', features: ['writing'] }, { error: 'invalid_request', message: 'Features must be one of: assistant' }],
      [{ base_url: 'https://api.openai.com/v1', model: 'm', features: ['assistant', 'assistant'] }, { error: 'invalid_request', message: 'Features must not repeat a feature' }],
      [{ base_url: 'https://api.openai.com/v1?x=1', model: 'm' }, { error: 'invalid_request', message: 'Base URL: Unexpected query or fragment; expected a base URL such as https://api.openai.com/v1' }],
      [{ base_url: 'http://127.0.0.1:11434/v1', model: 'm' }, { error: 'invalid_request', message: 'Base URL: URL resolves to a private address (127.0.0.1); only public addresses are allowed' }],
      [{ base_url: 'http://169.254.169.254/v1', model: 'm' }, { error: 'invalid_request', message: 'Base URL: URL resolves to a private address (169.254.169.254); only public addresses are allowed' }],
      [{ base_url: 'http://user:pw@example.com/v1', model: 'm' }, { error: 'invalid_request', message: 'Base URL: Unexpected credentials in URL; expected a public URL without user or password' }],
      [{ ...body, extra: 1 }, { error: 'invalid_request', message: 'Extra is not expected here' }],
    ];
    for (const [sent, expected] of cases) {
      const res = await dash(api, 'PUT', '/ai-settings', { auth: owner.auth, body: sent });
      t.same([res.status, res.body], [400, expected], JSON.stringify(sent));
    }
    t.equal((await dash(api, 'GET', '/ai-settings', { auth: owner.auth })).body.organization.base_url, llm.url, 'nothing refused was saved');
  });

  t.test('should let only owners and admins see or change the settings', async (t) => {
    const admin = await addUser(api, owner.orgId, 'admin');
    const adminAuth = await signIn(api, admin.email);
    t.equal((await dash(api, 'GET', '/ai-settings', { auth: adminAuth })).status, 200);
    for (const role of ['editor', 'viewer'] as const) {
      const user = await addUser(api, owner.orgId, role);
      const auth = await signIn(api, user.email);
      for (const [method, path, sent] of [['GET', '/ai-settings', undefined], ['PUT', '/ai-settings', body], ['POST', '/ai-settings/test', undefined], ['DELETE', '/ai-settings', undefined]] as const) {
        const res = await dash(api, method, path, { auth, body: sent });
        t.same([res.status, res.body.error], [403, 'forbidden_role'], `${role} ${method} ${path}`);
      }
    }
    const key = await api.key(owner.orgId);
    t.equal((await api.request('PUT', '/ai/model', { key, body })).status, 405, 'an API key cannot change it');
    t.equal((await dash(api, 'GET', '/ai-settings', { headers: { authorization: `Bearer ${key}` } })).status, 401);
  });

  t.test('should keep organizations apart', async (t) => {
    const other = await dashTenant(api, 'free');
    const theirs = await dash(api, 'GET', '/ai-settings', { auth: other.auth });
    t.same(theirs.body.organization, null, 'another organization sees none of it');
    t.notMatch(theirs.text, llm.url);
    await dash(api, 'PUT', '/ai-settings', { auth: other.auth, body: { ...body, model: 'theirs', api_key: 'sk-their-own-key-000000' } });
    const mine = await dash(api, 'GET', '/ai-settings', { auth: owner.auth });
    t.same([mine.body.organization.model, mine.body.organization.api_key.hint], ['stand-in-1', '…9c2e'], 'theirs changed nothing of mine');
    t.same((await dash(api, 'DELETE', '/ai-settings', { auth: other.auth })).status, 204);
    t.same((await dash(api, 'GET', '/ai-settings', { auth: owner.auth })).body.organization.model, 'stand-in-1', 'their delete removed only theirs');
    t.same((await dash(api, 'DELETE', '/ai-settings', { auth: other.auth })).body, { error: 'not_found', message: 'Model settings not found' });
    t.same((await dash(api, 'POST', '/ai-settings/test', { auth: other.auth })).body, { error: 'not_found', message: 'Model settings not found' });
  });
});
