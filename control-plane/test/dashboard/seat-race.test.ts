import t from 'tap';
import { startEmbeddedMongo } from '@folio/embedded-mongo';
import { parseEnv } from '../../src/env.ts';
import { startTestApi } from '../helpers/api.ts';
import { addUser, dash, dashTenant } from '../helpers/dashboard.ts';
import { scim, scimErrorBody, scimTenant, USER } from '../helpers/scim.ts';

/**
 * Invitations and SCIM creates racing for an organization's last dashboard seat, sent at once to
 * two control planes that share one database: exactly one gets the seat.
 */
t.test('the last dashboard seat under concurrent invitations', async (t) => {
  const server = await startEmbeddedMongo();
  t.teardown(() => server.close());
  const env = parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', MONGODB_URI: server.uri });
  const one = await startTestApi({ env });
  t.teardown(() => one.close());
  const two = await startTestApi({ env });
  t.teardown(() => two.close());

  t.test('should give one of 20 invitations the last seat and the other 19 the plan error', async (t) => {
    const owner = await dashTenant(one, 'pro'); // pro: 5 seats
    for (let i = 0; i < 3; i++) await addUser(one, owner.orgId, 'member');
    // Another organization inviting at the same time is not held up by, nor counted with, the first.
    const other = await dashTenant(one, 'pro');
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => dash(i % 2 ? two : one, 'POST', '/invitations', { auth: owner.auth, body: { email: `race${i}-${owner.orgId}@example.com`, role: 'member' } })),
      dash(two, 'POST', '/invitations', { auth: other.auth, body: { email: `other-${other.orgId}@example.com`, role: 'member' } }),
    ]);
    const otherAnswer = answers.pop()!;
    t.same(answers.map((a) => a.status).sort(), [201, ...Array(19).fill(402)], 'one created, 19 refused');
    for (const refused of answers.filter((a) => a.status === 402)) {
      t.same(refused.body, { error: 'plan_limit_reached', message: 'Your Pro plan allows 5 dashboard members; upgrade to invite more', upgrade_url: 'https://folio.dev/pricing' });
    }
    t.equal(await one.cp.m.Invitation.countDocuments({ org_id: owner.orgId }), 1, 'one invitation holds the seat');
    t.same((await dash(two, 'GET', '/plan', { auth: owner.auth })).body.features.max_dashboard_members, { type: 'quota', quota: 5, used: 5, remaining: 0 });
    t.equal(otherAnswer.status, 201, 'the other organization invited as usual');
    t.equal(await one.cp.m.Invitation.countDocuments({ org_id: other.orgId }), 1);
  });

  t.test('should give one of 20 SCIM creates the last seat and the other 19 the plan error', async (t) => {
    const { key, orgId } = await scimTenant(one, 'team'); // team: 15 seats (SCIM is a team feature)
    for (let i = 0; i < 14; i++) await addUser(one, orgId, 'member');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => scim(i % 2 ? two : one, key, 'POST', '/Users', { schemas: [USER], userName: `scim-race${i}-${orgId}@example.com` })));
    t.same(answers.map((a) => a.status).sort(), [201, ...Array(19).fill(402)], 'one created, 19 refused');
    for (const refused of answers.filter((a) => a.status === 402)) {
      t.same(refused.body, scimErrorBody(402, 'plan_limit_reached', 'Your Team plan allows 15 dashboard members; upgrade to invite more', undefined, { upgrade_url: 'https://folio.dev/pricing' }));
    }
    t.equal(await one.cp.m.Membership.countDocuments({ org_id: orgId }), 15, 'fifteen members, none past the cap');
  });
});
