/**
 * Starting single sign-on is public and writes a pending sign-in: one address gets 20 starts a
 * minute, then 429 with Retry-After, whatever the email.
 */
import t from 'tap';
import { dash } from '../helpers/dashboard.ts';
import { startSsoTestApi } from '../helpers/sso.ts';

t.test('SSO start limit', async (t) => {
  const sso = await startSsoTestApi();
  t.teardown(() => sso.close());
  const api = sso.api;

  t.test('should refuse the 21st start from one address within a minute, then allow it once the minute passed', async (t) => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await dash(api, 'POST', '/auth/sso/start', { body: { email: `p${i}@unknown-${i}.example` } })).status);
    t.same([...new Set(statuses)], [404], 'unknown domains, each counted');
    const refused = await dash(api, 'POST', '/auth/sso/start', { body: { email: 'someone@unknown.example' } });
    t.same([refused.status, refused.body, refused.headers.get('retry-after')], [429, { error: 'rate_limited', message: 'Too many single sign-on attempts from this address; try again in 60 s' }, '60']);
    api.clock.now = new Date(api.clock.now.getTime() + 60_001);
    t.equal((await dash(api, 'POST', '/auth/sso/start', { body: { email: 'someone@unknown.example' } })).status, 404);
  });
});
