/**
 * SCIM provisioning as Okta and Microsoft Entra ID do it: the request sequences their
 * documentation shows for creating, updating, deactivating and deprovisioning users and groups,
 * written out here and replayed over HTTP, every answer checked whole.
 */
import t from 'tap';
import { startTestApi } from '../helpers/api.ts';
import { addUser, dash, signIn } from '../helpers/dashboard.ts';
import { GROUP, groupBody, listBody, PATCH_OP, scim, scimErrorBody, scimTenant, USER, userBody } from '../helpers/scim.ts';

const ENTERPRISE_EXT = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

t.test('SCIM provisioning', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const now = api.clock.now;

  t.test('should follow Okta\'s user and group lifecycle', async (t) => {
    const { key, orgId } = await scimTenant(api, 'team');
    const email = `okta.user-${orgId}@example.com`;
    // Okta first looks the user up by userName.
    const lookup = await scim(api, key, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&startIndex=1&count=100`);
    t.same([lookup.status, lookup.body], [200, listBody([])]);
    t.equal(lookup.headers.get('content-type'), 'application/scim+json; charset=utf-8');

    const created = await scim(api, key, 'POST', '/Users', {
      schemas: [USER], userName: email, name: { givenName: 'Test', familyName: 'User' },
      emails: [{ primary: true, value: email, type: 'work' }], displayName: 'Test User', locale: 'en-US', externalId: '00ujl29u0le5T6Aj10h7', groups: [], password: '1mz050nq', active: true,
    });
    const id = created.body?.id;
    const user = { id, userName: email, externalId: '00ujl29u0le5T6Aj10h7', name: { givenName: 'Test', familyName: 'User' }, displayName: 'Test User', emails: [{ value: email, type: 'work', primary: true }], created: now };
    t.same([created.status, created.body], [201, userBody(api, user)]);
    t.equal(created.headers.get('location'), `${new URL(api.url).origin}/v1/scim/v2/Users/${id}`);
    t.equal(created.headers.get('etag'), 'W/"1"');
    const account = await api.cp.m.User.findOne({ email }).lean();
    t.same([account?.name, account?.password_hash], ['Test User', null], 'the account has no password: it signs in through SSO or an invitation');
    t.same((await api.cp.m.Membership.findOne({ org_id: orgId, user_id: account!._id }).lean())?.role, 'viewer', 'new members get the read-only default role');

    const read = await scim(api, key, 'GET', `/Users/${id}`);
    t.same([read.status, read.body], [200, userBody(api, user)]);

    // Profile updates come as PUT with the whole user.
    const put = await scim(api, key, 'PUT', `/Users/${id}`, {
      schemas: [USER], id, userName: email, name: { givenName: 'Another', familyName: 'User' },
      emails: [{ primary: true, value: email, type: 'work' }], displayName: 'Another User', externalId: '00ujl29u0le5T6Aj10h7', active: true,
      meta: { resourceType: 'User' },
    });
    const renamed = { ...user, name: { givenName: 'Another', familyName: 'User' }, displayName: 'Another User', version: 2 };
    t.same([put.status, put.body], [200, userBody(api, renamed)]);

    // Groups: pushed, renamed, filled and emptied.
    const group = await scim(api, key, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Test SCIMv2', members: [] });
    const gid = group.body?.id;
    t.same([group.status, group.body], [201, groupBody(api, { id: gid, displayName: 'Test SCIMv2', created: now })]);
    const listed = await scim(api, key, 'GET', '/Groups?excludedAttributes=members&startIndex=1&count=100');
    const { members: _omit, ...withoutMembers } = groupBody(api, { id: gid, displayName: 'Test SCIMv2', created: now });
    t.same([listed.status, listed.body], [200, listBody([withoutMembers])]);
    const rename = await scim(api, key, 'PATCH', `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { id: gid, displayName: 'Test SCIMv2 Updated' } }] });
    t.same([rename.status, rename.body], [200, groupBody(api, { id: gid, displayName: 'Test SCIMv2 Updated', created: now, version: 2 })]);
    const add = await scim(api, key, 'PATCH', `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: id, display: email }] }] });
    t.same([add.status, add.body], [200, groupBody(api, { id: gid, displayName: 'Test SCIMv2 Updated', members: [{ id, display: email }], created: now, version: 3 })]);
    t.same((await scim(api, key, 'GET', `/Users/${id}`)).body.groups, [{ value: gid, display: 'Test SCIMv2 Updated', $ref: `${new URL(api.url).origin}/v1/scim/v2/Groups/${gid}`, type: 'direct' }]);
    const remove = await scim(api, key, 'PATCH', `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }] });
    t.same([remove.status, remove.body], [200, groupBody(api, { id: gid, displayName: 'Test SCIMv2 Updated', created: now, version: 4 })]);

    // Deactivation, then reactivation.
    const off = await scim(api, key, 'PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] });
    t.same([off.status, off.body], [200, userBody(api, { ...renamed, active: false, version: 3 })]);
    t.equal((await api.cp.m.Membership.findOne({ org_id: orgId, user_id: account!._id }).lean())?.active, false);
    const on = await scim(api, key, 'PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: true } }] });
    t.same([on.status, on.body.active], [200, true]);

    const delGroup = await scim(api, key, 'DELETE', `/Groups/${gid}`);
    t.same([delGroup.status, delGroup.text], [204, '']);
    const gone = await scim(api, key, 'GET', `/Groups/${gid}`);
    t.same([gone.status, gone.body], [404, scimErrorBody(404, 'not_found', `Group ${gid} not found`)]);
  });

  t.test('should follow Microsoft Entra ID\'s user and group lifecycle', async (t) => {
    const { key, orgId } = await scimTenant(api, 'enterprise');
    const userName = `Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1-${orgId}@testuser.com`;
    const none = await scim(api, key, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    t.same([none.status, none.body], [200, listBody([])]);
    const created = await scim(api, key, 'POST', '/Users', {
      schemas: [USER, ENTERPRISE_EXT], externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef', userName, active: true,
      emails: [{ primary: true, type: 'work', value: `Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e-${orgId}@testuser.com` }],
      meta: { resourceType: 'User' }, name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' }, roles: [],
    });
    const id = created.body?.id;
    const user = {
      id, userName, externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef', name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      emails: [{ value: `Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e-${orgId}@testuser.com`, type: 'work', primary: true }], created: now,
    };
    t.same([created.status, created.body], [201, userBody(api, user)]);
    t.ok(await api.cp.m.User.exists({ email: `test_user_fd0ea19b-0777-472c-9f96-4f70d2226f2e-${orgId}@testuser.com` }), 'the account takes the primary email, lower-cased');
    t.same((await scim(api, key, 'GET', `/Users/${id}`)).body, userBody(api, user));
    // Entra matches on userName in any case, and on externalId.
    const byName = await scim(api, key, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName.toUpperCase()}"`)}`);
    t.same([byName.status, byName.body], [200, listBody([userBody(api, user)])]);
    const byExternal = await scim(api, key, 'GET', `/Users?filter=${encodeURIComponent('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')}`);
    t.same(byExternal.body, listBody([userBody(api, user)]));
    const dup = await scim(api, key, 'POST', '/Users', { schemas: [USER], userName, emails: [{ value: `other-${orgId}@testuser.com` }] });
    t.same([dup.status, dup.body], [409, scimErrorBody(409, 'conflict', `userName: ${JSON.stringify(userName)} is already provisioned in this organization`, 'uniqueness')]);

    // Capitalised ops, a filtered email path, and Add of an attribute not set yet.
    const patched = await scim(api, key, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: `updatedEmail-${orgId}@microsoft.com` },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Add', path: 'displayName', value: 'Updated Name' },
        { op: 'Add', path: `${ENTERPRISE_EXT}:department`, value: 'Docs' },
      ],
    });
    const updated = { ...user, name: { ...user.name, familyName: 'updatedFamilyName' }, displayName: 'Updated Name', emails: [{ value: `updatedEmail-${orgId}@microsoft.com`, type: 'work', primary: true }], version: 2 };
    t.same([patched.status, patched.body], [200, userBody(api, updated)]);
    // Soft delete: active as the string "False".
    const disabled = await scim(api, key, 'PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    t.same([disabled.status, disabled.body], [200, userBody(api, { ...updated, active: false, version: 3 })]);

    // Groups: created without members, read without them, renamed, filled, emptied, deleted.
    const group = await scim(api, key, 'POST', '/Groups', { schemas: [GROUP], externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', displayName: 'displayName', meta: { resourceType: 'Group' } });
    const gid = group.body?.id;
    const g = { id: gid, displayName: 'displayName', externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', created: now };
    t.same([group.status, group.body], [201, groupBody(api, g)]);
    const { members: _m, ...bare } = groupBody(api, g);
    t.same((await scim(api, key, 'GET', `/Groups/${gid}?excludedAttributes=members`)).body, bare);
    t.same((await scim(api, key, 'GET', `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "displayName"')}`)).body, listBody([bare]));
    const renamed = await scim(api, key, 'PATCH', `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'displayName', value: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' }] });
    const g2 = { ...g, displayName: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName', version: 2 };
    t.same([renamed.status, renamed.body], [200, groupBody(api, g2)]);
    const added = await scim(api, key, 'PATCH', `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: id }] }] });
    t.same([added.status, added.body], [200, groupBody(api, { ...g2, members: [{ id, display: userName }], version: 3 })]);
    const removed = await scim(api, key, 'PATCH', `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: id }] }] });
    t.same([removed.status, removed.body], [200, groupBody(api, { ...g2, version: 4 })]);
    t.same((await scim(api, key, 'DELETE', `/Groups/${gid}`)).status, 204);

    // Hard delete: the membership goes; the account goes with it (no other organization).
    const account = await api.cp.m.User.findOne({ email: `test_user_fd0ea19b-0777-472c-9f96-4f70d2226f2e-${orgId}@testuser.com` }).lean();
    const del = await scim(api, key, 'DELETE', `/Users/${id}`);
    t.same([del.status, del.text], [204, '']);
    t.same([await api.cp.m.Membership.exists({ org_id: orgId, user_id: account!._id }), await api.cp.m.User.exists({ _id: account!._id })], [null, null]);
    const missing = await scim(api, key, 'GET', `/Users/${id}`);
    t.same([missing.status, missing.body], [404, scimErrorBody(404, 'not_found', `User ${id} not found`)]);
  });

  t.test('should keep an account that belongs to another organization and link an existing member', async (t) => {
    const other = await api.org('pro');
    const { key, orgId } = await scimTenant(api, 'team');
    const person = await addUser(api, other.id, 'admin');
    await api.cp.m.Membership.create({ org_id: orgId, user_id: person.userId, role: 'admin', created_at: now });
    const linked = await scim(api, key, 'POST', '/Users', { schemas: [USER], userName: person.email });
    t.same([linked.status, linked.body], [201, userBody(api, { id: linked.body?.id, userName: person.email, created: now })]);
    t.same((await api.cp.m.Membership.findOne({ org_id: orgId, user_id: person.userId }).lean())?.role, 'admin', 'an existing member keeps their role');
    const auth = await signIn(api, person.email);
    t.equal((await dash(api, 'GET', '/session', { auth })).status, 200);
    t.equal((await scim(api, key, 'DELETE', `/Users/${linked.body.id}`)).status, 204);
    t.same([await api.cp.m.Membership.exists({ org_id: orgId, user_id: person.userId }), Boolean(await api.cp.m.User.exists({ _id: person.userId }))], [null, true], 'the account stays for its other organization');
  });
});
