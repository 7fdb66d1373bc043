/**
 * SCIM's edges: who may call it, the seat limit, concurrent creates, If-Match, suspension
 * ending sessions, the last owner, and a custom role reaching members through a SCIM group.
 */
import t from 'tap';
import { startTestApi } from '../helpers/api.ts';
import { addUser, dash, PASSWORD, signIn } from '../helpers/dashboard.ts';
import { GROUP, PATCH_OP, scim, scimErrorBody, scimTenant, USER } from '../helpers/scim.ts';

const NOT_SIGNED_IN = { error: 'unauthorized', message: 'Not signed in; sign in to the dashboard first' };

t.test('SCIM access and effects', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());

  t.test('should answer the plan gate, a missing scope and a missing key as SCIM errors', async (t) => {
    for (const plan of ['free', 'pro'] as const) {
      const { key } = await scimTenant(api, plan);
      const res = await scim(api, key, 'GET', '/Users');
      t.same([res.status, res.body], [402, scimErrorBody(402, 'plan_required', 'The Single sign-on (SSO) feature needs the Team plan or higher', undefined, { upgrade_url: 'https://folio.dev/pricing' })], plan);
      t.equal(res.headers.get('content-type'), 'application/scim+json; charset=utf-8');
    }
    const team = await api.org('team');
    const narrow = await api.key(team.id, ['projects:read']);
    const refused = await scim(api, narrow, 'POST', '/Users', { schemas: [USER], userName: 'x@example.com' });
    t.same([refused.status, refused.body], [403, scimErrorBody(403, 'forbidden', 'This API key lacks the scope scim')]);
    const anonymous = await api.request('GET', '/scim/v2/Groups');
    t.same([anonymous.status, anonymous.body], [401, scimErrorBody(401, 'unauthorized', 'Missing Authorization header; expected "Bearer <API key>"')]);
    const wrongType = await api.request('POST', '/scim/v2/Users', { key: await api.key(team.id), raw: 'userName=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    t.same([wrongType.status, wrongType.body], [415, scimErrorBody(415, 'unsupported_media_type', 'Content-Type: Unexpected "application/x-www-form-urlencoded"; expected application/scim+json')]);
  });

  t.test('should describe what it supports', async (t) => {
    const { key } = await scimTenant(api, 'team');
    const spc = await scim(api, key, 'GET', '/ServiceProviderConfig');
    t.same([spc.body.patch, spc.body.bulk, spc.body.filter, spc.body.changePassword, spc.body.sort, spc.body.etag], [
      { supported: true }, { supported: false, maxOperations: 0, maxPayloadSize: 0 }, { supported: true, maxResults: 200 }, { supported: false }, { supported: false }, { supported: true },
    ]);
    const types = await scim(api, key, 'GET', '/ResourceTypes');
    t.same(types.body.Resources.map((r: any) => [r.id, r.endpoint, r.schema]), [['User', '/Users', USER], ['Group', '/Groups', GROUP]]);
    const schema = await scim(api, key, 'GET', `/Schemas/${USER}`);
    t.same(schema.body.attributes.map((a: any) => a.name), ['userName', 'name', 'displayName', 'emails', 'active', 'groups']);
    const doc = (await api.request('GET', '/openapi.json')).body;
    const create = doc.paths['/scim/v2/Users'].post;
    t.same([create['x-required-scope'], Object.keys(create.requestBody.content), Object.keys(create.responses['201'].content)], ['scim', ['application/scim+json'], ['application/scim+json']], 'SCIM is in the OpenAPI document');
    t.same(Object.keys(doc.paths).filter((p: string) => p.startsWith('/scim/v2/')).sort(), [
      '/scim/v2/Groups', '/scim/v2/Groups/{id}', '/scim/v2/ResourceTypes', '/scim/v2/ResourceTypes/{id}', '/scim/v2/Schemas', '/scim/v2/Schemas/{id}', '/scim/v2/ServiceProviderConfig', '/scim/v2/Users', '/scim/v2/Users/{id}',
    ]);
    const unknown = await scim(api, key, 'GET', '/Schemas/urn:nope');
    t.same([unknown.status, unknown.body], [404, scimErrorBody(404, 'not_found', 'Schema urn:nope not found')]);
  });

  t.test('should give concurrent creates of one userName one user and 409s', async (t) => {
    const { key, orgId } = await scimTenant(api, 'team');
    const userName = `race-${orgId}@example.com`;
    const sent = Array.from({ length: 8 }, (_, i) => (i % 2 ? userName.toUpperCase() : userName));
    const answers = await Promise.all(sent.map((name) => scim(api, key, 'POST', '/Users', { schemas: [USER], userName: name })));
    t.equal(answers.filter((a) => a.status === 201).length, 1, 'one user');
    answers.forEach((a, i) => {
      if (a.status === 201) return;
      const detail = `userName: ${JSON.stringify(sent[i])} is already provisioned in this organization`;
      t.same([a.status, a.body], [409, scimErrorBody(409, 'conflict', detail, 'uniqueness')], `request ${i}`);
    });
    t.equal(await api.cp.m.Membership.countDocuments({ org_id: orgId }), 1);
    t.equal(await api.cp.m.User.countDocuments({ email: userName }), 1);
  });

  t.test('should apply the seat limit to SCIM creates', async (t) => {
    const { key, orgId } = await scimTenant(api, 'team'); // team: 15 seats
    for (let i = 0; i < 15; i++) t.equal((await scim(api, key, 'POST', '/Users', { schemas: [USER], userName: `seat${i}-${orgId}@example.com` })).status, 201);
    const past = await scim(api, key, 'POST', '/Users', { schemas: [USER], userName: `seat99-${orgId}@example.com` });
    t.same([past.status, past.body], [402, scimErrorBody(402, 'plan_limit_reached', 'Your Team plan allows 15 dashboard members; upgrade to invite more', undefined, { upgrade_url: 'https://folio.dev/pricing' })]);
    const noEmail = await scim(api, key, 'POST', '/Users', { schemas: [USER], userName: 'just-a-name' });
    t.same([noEmail.status, noEmail.body], [400, scimErrorBody(400, 'invalid_request', 'emails: a dashboard account needs an email address; send emails[].value or an email-shaped userName', 'invalidValue')]);
  });

  t.test('should refuse a stale If-Match with 412 and accept the current one', async (t) => {
    const { key, orgId } = await scimTenant(api, 'team');
    const made = await scim(api, key, 'POST', '/Users', { schemas: [USER], userName: `etag-${orgId}@example.com` });
    const { id } = made.body;
    const stranger = await scimTenant(api, 'team');
    const foreign = await scim(api, stranger.key, 'GET', `/Users/${id}`);
    t.same([foreign.status, foreign.body], [404, scimErrorBody(404, 'not_found', `User ${id} not found`)], 'another organization\'s user is not found');
    const body = { schemas: [USER], userName: `etag-${orgId}@example.com`, displayName: 'Second' };
    const ok = await scim(api, key, 'PUT', `/Users/${id}`, body, { 'if-match': 'W/"1"' });
    t.same([ok.status, ok.headers.get('etag'), ok.body.meta.version], [200, 'W/"2"', 'W/"2"']);
    const stale = await scim(api, key, 'PUT', `/Users/${id}`, body, { 'if-match': 'W/"1"' });
    t.same([stale.status, stale.body], [412, scimErrorBody(412, 'precondition_failed', 'If-Match: W/"1" is not the current version W/"2"; read the resource again')]);
    const patch = await scim(api, key, 'PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'x' }] }, { 'if-match': 'W/"7"' });
    t.same([patch.status, patch.body.status], [412, '412']);
    t.equal((await scim(api, key, 'DELETE', `/Users/${id}`, undefined, { 'if-match': 'W/"1"' })).status, 412);
    t.equal((await scim(api, key, 'DELETE', `/Users/${id}`, undefined, { 'if-match': '*' })).status, 204);
    const readOnly = await scim(api, key, 'POST', '/Users', { schemas: [USER], userName: `ro-${orgId}@example.com` });
    const moved = await scim(api, key, 'PATCH', `/Users/${readOnly.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { id: 'another' } }] });
    t.same([moved.status, moved.body], [400, scimErrorBody(400, 'invalid_request', `id: is read-only; expected ${JSON.stringify(readOnly.body.id)}`, 'mutability')]);
    const noTarget = await scim(api, key, 'PATCH', `/Users/${readOnly.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove' }] });
    t.same([noTarget.status, noTarget.body], [400, scimErrorBody(400, 'invalid_request', 'Operations[0]: remove needs a path', 'noTarget')]);
    const badValue = await scim(api, key, 'PATCH', `/Users/${readOnly.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] });
    t.same([badValue.status, badValue.body], [400, scimErrorBody(400, 'invalid_request', 'active: Unexpected "maybe"; expected true or false', 'invalidValue')]);
  });

  t.test('should end a member\'s sessions when deactivated, refuse new ones, and keep the last owner', async (t) => {
    const { key, orgId } = await scimTenant(api, 'team');
    const owner = await addUser(api, orgId, 'owner');
    const person = await addUser(api, orgId, 'editor');
    const auth = await signIn(api, person.email);
    const linked = await scim(api, key, 'POST', '/Users', { schemas: [USER], userName: person.email });
    t.equal((await dash(api, 'GET', '/session', { auth })).status, 200);
    const off = await scim(api, key, 'PATCH', `/Users/${linked.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] });
    t.equal(off.status, 200);
    t.same((await dash(api, 'GET', '/session', { auth })).body, NOT_SIGNED_IN, 'the live session ended');
    t.equal(await api.cp.m.Session.countDocuments({ user_id: person.userId, org_id: orgId }), 0);
    const again = await dash(api, 'POST', '/auth/sign-in', { body: { email: person.email, password: PASSWORD } });
    t.same([again.status, again.body], [401, { error: 'invalid_credentials', message: 'Email or password is incorrect' }], 'a suspended seat cannot sign in with a password');
    const ownerAuth = await signIn(api, owner.email);
    const listed = await dash(api, 'GET', '/members', { auth: ownerAuth });
    t.same(listed.body.data.find((m: any) => m.user_id === person.userId)?.active, false, 'the dashboard shows the suspension');
    const ownerScim = await scim(api, key, 'POST', '/Users', { schemas: [USER], userName: owner.email });
    const last = await scim(api, key, 'PATCH', `/Users/${ownerScim.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] });
    t.same([last.status, last.body], [409, scimErrorBody(409, 'last_owner', 'An organization needs an owner; make another member owner in the dashboard first')]);
    t.equal((await scim(api, key, 'DELETE', `/Users/${ownerScim.body.id}`)).status, 409);
    t.equal((await dash(api, 'DELETE', `/members/${person.userId}`, { auth: ownerAuth })).status, 204);
    const removed = await scim(api, key, 'GET', `/Users/${linked.body.id}`);
    t.same([removed.status, removed.body.status], [404, '404'], 'removing a member in the dashboard removes their SCIM user');
  });

  t.test('should let a SCIM group carry a custom role that the server enforces', async (t) => {
    const { key, orgId } = await scimTenant(api, 'enterprise');
    const owner = await addUser(api, orgId, 'owner');
    const ownerAuth = await signIn(api, owner.email);
    const role = await dash(api, 'POST', '/roles', { auth: ownerAuth, body: { name: 'Project managers', permissions: ['projects.write', 'projects.read'] } });
    t.same([role.status, role.body], [201, { id: role.body.id, name: 'Project managers', description: '', built_in: false, permissions: ['projects.read', 'projects.write'] }]);
    t.match(role.body.id, /^custom:[0-9a-f-]{36}$/);
    const person = await addUser(api, orgId, 'viewer');
    const user = await scim(api, key, 'POST', '/Users', { schemas: [USER], userName: person.email });
    const group = await scim(api, key, 'POST', '/Groups', { schemas: [GROUP], displayName: 'PMs', members: [{ value: user.body.id }] });
    const auth = await signIn(api, person.email);
    const before = await dash(api, 'POST', '/projects', { auth, body: { name: 'Docs', slug: `pm-${process.pid}-a` } });
    t.same([before.status, before.body], [403, { error: 'forbidden_role', message: 'This action needs the owner or admin role; you are a viewer' }]);
    const mapped = await dash(api, 'PUT', `/scim-groups/${group.body.id}/role`, { auth: ownerAuth, body: { role: role.body.id } });
    t.same([mapped.status, mapped.body], [200, { id: group.body.id, display_name: 'PMs', external_id: null, members: 1, role: role.body.id }]);
    t.same((await dash(api, 'GET', '/session', { auth })).body.permissions, ['projects.read', 'projects.write', 'members.read', 'plan.read', 'analytics.read'], 'the group adds its role\'s permissions on the next request');
    const after = await dash(api, 'POST', '/projects', { auth, body: { name: 'Docs', slug: `pm-${process.pid}-b` } });
    t.equal(after.status, 201, after.text);
    const members = await dash(api, 'GET', '/members', { auth: ownerAuth });
    t.same(members.body.data.find((m: any) => m.user_id === person.userId)?.group_roles, [role.body.id]);
    const inUse = await dash(api, 'DELETE', `/roles/${role.body.id}`, { auth: ownerAuth });
    t.same([inUse.status, inUse.body], [409, { error: 'role_in_use', message: '"Project managers" is held by 0 member(s), 0 invitation(s) and 1 SCIM group(s); give them another role first' }]);
    await scim(api, key, 'PATCH', `/Groups/${group.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: `members[value eq "${user.body.id}"]` }] });
    const removed = await dash(api, 'POST', '/projects', { auth, body: { name: 'Docs', slug: `pm-${process.pid}-c` } });
    t.same([removed.status, removed.body.error], [403, 'forbidden_role'], 'leaving the group takes the role away');
    const owned = await dash(api, 'PUT', `/scim-groups/${group.body.id}/role`, { auth: ownerAuth, body: { role: 'owner' } });
    t.same([owned.status, owned.body], [400, { error: 'invalid_request', message: 'Role: Unexpected "owner"; ownership is given to a person, never through a group' }]);
  });

  t.test('should keep custom roles to enterprise and within their author\'s permissions', async (t) => {
    const team = await api.org('team');
    const teamOwner = await signIn(api, (await addUser(api, team.id, 'owner')).email);
    const gated = await dash(api, 'POST', '/roles', { auth: teamOwner, body: { name: 'Writers', permissions: ['content.edit'] } });
    t.same([gated.status, gated.body], [402, { error: 'plan_required', message: 'The Custom roles feature needs the Enterprise plan or higher', upgrade_url: 'https://folio.dev/pricing' }]);
    const ent = await api.org('enterprise');
    const owner = await signIn(api, (await addUser(api, ent.id, 'owner')).email);
    const roleAdmins = await dash(api, 'POST', '/roles', { auth: owner, body: { name: 'Role admins', permissions: ['roles.manage', 'members.read'] } });
    t.equal(roleAdmins.status, 201);
    const delegate = await addUser(api, ent.id, roleAdmins.body.id);
    const delegateAuth = await signIn(api, delegate.email);
    const beyond = await dash(api, 'POST', '/roles', { auth: delegateAuth, body: { name: 'Key holders', permissions: ['keys.manage'] } });
    t.same([beyond.status, beyond.body], [403, { error: 'forbidden_role', message: 'Permissions keys.manage is not yours to grant' }]);
    const managers = await dash(api, 'POST', '/roles', { auth: owner, body: { name: 'People managers', permissions: ['projects.read', 'members.read', 'plan.read', 'analytics.read', 'members.manage'] } });
    const manager = await signIn(api, (await addUser(api, ent.id, managers.body.id)).email);
    const admin = await addUser(api, ent.id, 'admin');
    const viewer = await addUser(api, ent.id, 'viewer');
    const demote = await dash(api, 'PATCH', `/members/${admin.userId}`, { auth: manager, body: { role: 'viewer' } });
    t.same([demote.status, demote.body], [403, { error: 'forbidden_role', message: 'This member\'s role grants projects.write, deployments.trigger, domains.manage, keys.manage, members.invite, settings.manage, content.edit, content.publish, audit.read, github.manage, which you do not hold' }]);
    const promote = await dash(api, 'PATCH', `/members/${viewer.userId}`, { auth: manager, body: { role: 'editor' } });
    t.same([promote.status, promote.body], [403, { error: 'forbidden_role', message: 'Role: "editor" grants deployments.trigger, content.edit, content.publish, which you do not hold' }]);
    const peer = await dash(api, 'PATCH', `/members/${viewer.userId}`, { auth: manager, body: { role: managers.body.id } });
    t.same([peer.status, peer.body.role], [200, managers.body.id], 'a role within one\'s own permissions can be given');
    const unknown = await dash(api, 'POST', '/roles', { auth: owner, body: { name: 'Bad', permissions: ['everything'] } });
    t.equal(unknown.status, 400);
    const clash = await dash(api, 'POST', '/roles', { auth: owner, body: { name: 'role ADMINS', permissions: [] } });
    t.same([clash.status, clash.body], [409, { error: 'role_name_taken', message: 'Name: "role ADMINS" is already a role of this organization' }]);
    const builtIn = await dash(api, 'POST', '/roles', { auth: owner, body: { name: 'Editor', permissions: [] } });
    t.same([builtIn.status, builtIn.body.error], [409, 'role_name_taken']);
  });
});
