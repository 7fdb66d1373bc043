import t from 'tap';
import { updateKey } from '../../src/admin/api-keys.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { SCOPES } from '../../src/auth/scopes.ts';
import { startTestApi } from '../helpers/api.ts';

// Keys minted or edited from the command line reach these checks without the dashboard's schema.
t.test('an unknown scope is refused by name, with the scopes there are', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const { orgId } = await api.tenant('free');
  const message = `scopes: Unexpected "admin"; expected one of ${SCOPES.join(', ')}`;
  t.match(message, /projects:read, projects:write/, 'the scopes are listed in words a person can copy');
  const before = await api.cp.m.ApiKey.countDocuments({ org_id: orgId });
  await t.rejects(createApiKey(api.cp.m, { orgId, scopes: ['projects:read', 'admin'] }), { status: 400, code: 'invalid_request', message });
  t.equal(await api.cp.m.ApiKey.countDocuments({ org_id: orgId }), before, 'no key was minted');
  const { id } = await createApiKey(api.cp.m, { orgId, name: 'ci', scopes: ['projects:read'] });
  await t.rejects(updateKey(api.cp.m, orgId, id, { scopes: ['admin'] }, api.clock.now), { status: 400, code: 'invalid_request', message });
  t.same((await api.cp.m.ApiKey.findById(id).lean())?.scopes, ['projects:read'], 'the key keeps its scopes');
});
