import t from 'tap';
import { startTestApi } from '../helpers/api.ts';
import { addUser, dash, dashTenant, PASSWORD, sessionTokenOf, signIn } from '../helpers/dashboard.ts';

const tokenOf = (url: string) => new URL(url).hash.replace('#token=', '');

t.test('dashboard members and invitations', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const origin = new URL(api.url).origin;

  t.test('should invite by link, let the invitee join once, and list members', async (t) => {
    const owner = await dashTenant(api, 'pro');
    const email = `new-${process.pid}@example.com`;
    const inv = await dash(api, 'POST', '/invitations', { auth: owner.auth, body: { email, role: 'admin' } });
    t.equal(inv.status, 201, inv.text);
    t.match(inv.body.invite_url, new RegExp(`^${origin}/accept-invite#token=[A-Za-z0-9_-]{43}$`));
    t.same((await dash(api, 'GET', '/invitations', { auth: owner.auth })).body.data.map((i: any) => [i.email, i.role]), [[email, 'admin']]);
    const wrongEmail = await dash(api, 'POST', '/auth/accept-invite', { body: { token: tokenOf(inv.body.invite_url), name: 'New', email: 'x@example.com', password: PASSWORD } });
    t.same([wrongEmail.status, wrongEmail.body], [400, { error: 'invalid_request', message: `Email must be the invited address ${email}` }]);
    const joined = await dash(api, 'POST', '/auth/accept-invite', { body: { token: tokenOf(inv.body.invite_url), name: 'New', password: PASSWORD } });
    t.equal(joined.status, 200, joined.text);
    t.same([joined.body.role, joined.body.organization.id, joined.body.user.email], ['admin', owner.orgId, email]);
    t.ok(sessionTokenOf(joined));
    const again = await dash(api, 'POST', '/auth/accept-invite', { body: { token: tokenOf(inv.body.invite_url), name: 'New', password: PASSWORD } });
    t.same([again.status, again.body], [400, { error: 'invalid_token', message: 'This link is unknown, already used or expired; ask for a new one' }]);
    const members = await dash(api, 'GET', '/members', { auth: owner.auth });
    t.same(members.body.data.map((m: any) => [m.email, m.role]).sort(), [[email, 'admin'], [owner.email, 'owner']].sort());
    t.same((await dash(api, 'GET', '/invitations', { auth: owner.auth })).body, { data: [] });
    const dup = await dash(api, 'POST', '/invitations', { auth: owner.auth, body: { email, role: 'member' } });
    t.same([dup.status, dup.body], [409, { error: 'already_member', message: `Email ${email} is already a member` }]);
  });

  t.test('should count pending invitations against max_dashboard_members and answer 402 past it', async (t) => {
    const owner = await dashTenant(api, 'pro'); // pro: 5 members
    for (let i = 0; i < 4; i++) t.equal((await dash(api, 'POST', '/invitations', { auth: owner.auth, body: { email: `seat${i}-${owner.orgId}@example.com`, role: 'member' } })).status, 201);
    const past = await dash(api, 'POST', '/invitations', { auth: owner.auth, body: { email: `seat9-${owner.orgId}@example.com`, role: 'member' } });
    t.same([past.status, past.body], [402, { error: 'plan_limit_reached', message: 'Your Pro plan allows 5 dashboard members; upgrade to invite more', upgrade_url: 'https://folio.dev/pricing' }]);
    t.same((await dash(api, 'GET', '/plan', { auth: owner.auth })).body.features.max_dashboard_members, { type: 'quota', quota: 5, used: 5, remaining: 0 });
    const { body: { data } } = await dash(api, 'GET', '/invitations', { auth: owner.auth });
    t.equal((await dash(api, 'DELETE', `/invitations/${data[0].id}`, { auth: owner.auth })).status, 204, 'revoking frees the seat');
    t.equal((await dash(api, 'POST', '/invitations', { auth: owner.auth, body: { email: `seat9-${owner.orgId}@example.com`, role: 'member' } })).status, 201);
    const free = await dashTenant(api, 'free');
    const none = await dash(api, 'POST', '/invitations', { auth: free.auth, body: { email: 'x@example.com', role: 'member' } });
    t.same([none.status, none.body.error], [402, 'plan_limit_reached'], 'the free plan has one seat, the owner\'s');
  });

  t.test('should enforce roles and keep the last owner', async (t) => {
    const owner = await dashTenant(api, 'team');
    const admin = await addUser(api, owner.orgId, 'admin');
    const member = await addUser(api, owner.orgId, 'member');
    const adminAuth = await signIn(api, admin.email);
    const memberAuth = await signIn(api, member.email);
    const cases: [any, string, string, unknown, number, unknown][] = [
      [memberAuth, 'POST', '/invitations', { email: 'a@example.com', role: 'member' }, 403, { error: 'forbidden_role', message: 'This action needs the owner or admin role; you are a member' }],
      [adminAuth, 'POST', '/invitations', { email: 'a@example.com', role: 'owner' }, 403, { error: 'forbidden_role', message: 'Only an owner can invite an owner' }],
      [adminAuth, 'PATCH', `/members/${member.userId}`, { role: 'admin' }, 403, { error: 'forbidden_role', message: 'This action needs the owner role; you are an admin' }],
      [memberAuth, 'DELETE', `/members/${admin.userId}`, undefined, 403, { error: 'forbidden_role', message: 'Members can remove only themselves' }],
      [adminAuth, 'DELETE', `/members/${owner.userId}`, undefined, 403, { error: 'forbidden_role', message: 'Admins can remove members only' }],
      [owner.auth, 'PATCH', `/members/${owner.userId}`, { role: 'admin' }, 409, { error: 'last_owner', message: 'An organization needs an owner; make another member owner first' }],
      [owner.auth, 'DELETE', `/members/${owner.userId}`, undefined, 409, { error: 'last_owner', message: 'An organization needs an owner; make another member owner first' }],
      [owner.auth, 'PATCH', `/members/${member.userId}`, { role: 'boss' }, 400, { error: 'invalid_request', message: 'Role: Invalid option: expected one of "owner"|"admin"|"editor"|"viewer"|"member" or "custom:<id>"' }],
    ];
    for (const [auth, method, path, body, status, expected] of cases) {
      const res = await dash(api, method, path, { auth, body });
      t.same([res.status, res.body], [status, expected], `${method} ${path} ${JSON.stringify(body)}`);
    }
    const promoted = await dash(api, 'PATCH', `/members/${member.userId}`, { auth: owner.auth, body: { role: 'admin' } });
    t.same([promoted.status, promoted.body.role], [200, 'admin']);
    t.equal((await dash(api, 'GET', '/session', { auth: memberAuth })).body.role, 'admin', 'a role change applies to live sessions');
    t.equal((await dash(api, 'DELETE', `/members/${member.userId}`, { auth: owner.auth })).status, 204);
    t.same((await dash(api, 'GET', '/session', { auth: memberAuth })).body, { error: 'unauthorized', message: 'Not signed in; sign in to the dashboard first' }, 'a removed member is signed out');
    const other = await dashTenant(api, 'team');
    const foreign = await dash(api, 'PATCH', `/members/${admin.userId}`, { auth: other.auth, body: { role: 'member' } });
    t.same([foreign.status, foreign.body], [404, { error: 'not_found', message: 'member not found' }]);
    t.equal((await dash(api, 'DELETE', `/members/${admin.userId}`, { auth: adminAuth })).status, 204, 'anyone may leave');
  });

  t.test('should let an existing account join another organization only while signed in as itself', async (t) => {
    const a = await dashTenant(api, 'pro');
    const b = await dashTenant(api, 'pro');
    const inv = await dash(api, 'POST', '/invitations', { auth: b.auth, body: { email: a.email, role: 'member' } });
    const token = tokenOf(inv.body.invite_url);
    const peek = await dash(api, 'POST', '/auth/invitation', { body: { token } });
    t.same([peek.status, peek.body], [200, { email: a.email, role: 'member', organization: { name: peek.body.organization.name }, account_exists: true, expires_at: inv.body.expires_at }]);
    const withPassword = await dash(api, 'POST', '/auth/accept-invite', { body: { token, name: 'A', password: PASSWORD } });
    t.same([withPassword.status, withPassword.body], [409, { error: 'sign_in_required', message: 'An account exists for this email; sign in, then open the invitation link again' }]);
    t.equal(sessionTokenOf(withPassword), undefined);
    const joined = await dash(api, 'POST', '/auth/accept-invite', { auth: a.auth, body: { token } });
    t.same([joined.status, joined.body.organization.id, joined.body.role, joined.body.user.email], [200, b.orgId, 'member', a.email]);
    t.same((await dash(api, 'GET', '/session', { auth: a.auth })).body, { error: 'unauthorized', message: 'Not signed in; sign in to the dashboard first' }, 'the session it came with ended');
    const fresh = { token: sessionTokenOf(joined)!, cookie: `folio_session=${sessionTokenOf(joined)}`, csrf: joined.body.csrf_token };
    t.equal((await dash(api, 'GET', '/session', { auth: fresh })).body.organization.id, b.orgId, 'the new session is in the invited organization');
  });
});
