import t from 'tap';
import { migrateLegacyDomains, PENDING_DOMAIN_TTL_MS } from '../../src/db/models/domain.ts';
import { parseEnv } from '../../src/env.ts';
import { projectIdForHost } from '../../src/sites/host-project.ts';
import { startTestApi } from '../helpers/api.ts';
import { dash, dashTenant } from '../helpers/dashboard.ts';
import { startDnsStandIn } from '../helpers/dns-stand-in.ts';

t.test('dashboard custom domains', async (t) => {
  const dns = await startDnsStandIn();
  t.teardown(() => dns.close());
  const api = await startTestApi({ env: parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', DNS_RESOLVER: dns.server }) });
  t.teardown(() => api.close());
  const host = (n: string) => `${n}-${process.pid}.example.com`;

  t.test('should add a pending domain, verify it by DNS TXT and serve it only then', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'pro');
    const project = await api.project(await api.key(orgId));
    const hostname = host('docs');
    const added = await dash(api, 'POST', `/projects/${project.id}/domains`, { auth, body: { hostname: hostname.toUpperCase() } });
    t.equal(added.status, 201, added.text);
    const token = added.body.verification.http_body;
    t.same(added.body, {
      hostname, status: 'pending', created_at: api.clock.now.toISOString(), verified_at: null,
      expires_at: new Date(api.clock.now.getTime() + PENDING_DOMAIN_TTL_MS).toISOString(),
      verification: { txt_name: `_folio-challenge.${hostname}`, txt_value: `folio-verify=${token}`, http_path: '/.well-known/folio-verify.txt', http_body: token },
      // A subdomain points at the sites domain by CNAME; no certificate is ordered by a platform without ACME_DIRECTORY_URL.
      dns: { kind: 'subdomain', records: [{ type: 'CNAME', name: hostname, value: 'localhost' }] },
      certificate: null,
    });
    t.equal(await projectIdForHost(api.cp.m, 'localhost', hostname), undefined, 'not served while pending');
    dns.txt.set(`_folio-challenge.${hostname}`, ['folio-verify=someone-else']);
    const failed = await dash(api, 'POST', `/projects/${project.id}/domains/${hostname}/verify`, { auth });
    t.equal(failed.status, 409);
    t.equal(failed.body.error, 'verification_failed');
    t.match(failed.body.message, `${hostname} is not verified yet: DNS: TXT _folio-challenge.${hostname} has 1 record(s), none is folio-verify=${token}; HTTP: http://${hostname}/.well-known/folio-verify.txt could not be read`);
    dns.txt.set(`_folio-challenge.${hostname}`, ['other', `folio-verify=${token}`]);
    const verified = await dash(api, 'POST', `/projects/${project.id}/domains/${hostname}/verify`, { auth });
    t.same([verified.status, verified.body.status, verified.body.verified_at, verified.body.expires_at], [200, 'verified', api.clock.now.toISOString(), null]);
    t.equal(await projectIdForHost(api.cp.m, 'localhost', `${hostname}:443`), project.id, 'served once verified');
    t.equal((await api.request('GET', `/projects/${project.id}`, { key: await api.key(orgId) })).body.custom_domain, hostname, '/v1 shows the primary domain');
    t.same((await dash(api, 'GET', `/projects/${project.id}/domains`, { auth })).body.data.map((d: any) => [d.hostname, d.status]), [[hostname, 'verified']]);
    t.equal((await dash(api, 'DELETE', `/projects/${project.id}/domains/${hostname}`, { auth })).status, 204);
    t.equal(await projectIdForHost(api.cp.m, 'localhost', hostname), undefined, 'not served once removed');
    t.equal((await dash(api, 'GET', `/projects/${project.id}`, { auth })).body.custom_domain, null);
  });

  t.test('should let a pending claim block nobody, and give the hostname to the first to verify', async (t) => {
    const a = await dashTenant(api, 'pro');
    const b = await dashTenant(api, 'pro');
    const c = await dashTenant(api, 'pro');
    const pa = await api.project(await api.key(a.orgId));
    const pb = await api.project(await api.key(b.orgId));
    const pc = await api.project(await api.key(c.orgId));
    const hostname = host('victim');
    // B claims the domain first and never proves it; A, the owner, can still add it.
    const claimB = await dash(api, 'POST', `/projects/${pb.id}/domains`, { auth: b.auth, body: { hostname } });
    const claimA = await dash(api, 'POST', `/projects/${pa.id}/domains`, { auth: a.auth, body: { hostname } });
    t.same([claimB.status, claimA.status], [201, 201]);
    t.not(claimA.body.verification.http_body, claimB.body.verification.http_body, 'each claim has its own token');
    const again = await dash(api, 'POST', `/projects/${pa.id}/domains`, { auth: a.auth, body: { hostname } });
    t.same([again.status, again.body], [409, { error: 'domain_taken', message: `Domain ${hostname} is already added to a project` }], 'one claim per project');
    // B's token is not A's: B cannot verify with the record A published.
    dns.txt.set(`_folio-challenge.${hostname}`, [claimA.body.verification.txt_value]);
    t.same((await dash(api, 'POST', `/projects/${pb.id}/domains/${hostname}/verify`, { auth: b.auth })).body.error, 'verification_failed');
    const won = await dash(api, 'POST', `/projects/${pa.id}/domains/${hostname}/verify`, { auth: a.auth });
    t.same([won.status, won.body.status], [200, 'verified']);
    t.equal(await projectIdForHost(api.cp.m, 'localhost', hostname), pa.id);
    t.same((await dash(api, 'GET', `/projects/${pb.id}/domains`, { auth: b.auth })).body.data, [], 'B\'s pending claim is gone');
    t.same(await api.cp.m.Domain.find({ hostname }).lean().then((rows) => rows.map((d) => [d.project_id, d.status])), [[pa.id, 'verified']]);
    for (const [who, p] of [[b, pb], [c, pc]] as const) {
      const taken = await dash(api, 'POST', `/projects/${p.id}/domains`, { auth: who.auth, body: { hostname } });
      t.same([taken.status, taken.body], [409, { error: 'domain_taken', message: `Domain ${hostname} is already added to a project` }]);
    }
    const gone = await dash(api, 'POST', `/projects/${pb.id}/domains/${hostname}/verify`, { auth: b.auth });
    t.same([gone.status, gone.body], [404, { error: 'not_found', message: 'domain not found' }]);
  });

  t.test('should let exactly one of two simultaneous verifications win', async (t) => {
    for (let round = 0; round < 3; round++) {
      const a = await dashTenant(api, 'pro');
      const b = await dashTenant(api, 'pro');
      const pa = await api.project(await api.key(a.orgId));
      const pb = await api.project(await api.key(b.orgId));
      const hostname = host(`race${round}`);
      const ta = (await dash(api, 'POST', `/projects/${pa.id}/domains`, { auth: a.auth, body: { hostname } })).body.verification.txt_value;
      const tb = (await dash(api, 'POST', `/projects/${pb.id}/domains`, { auth: b.auth, body: { hostname } })).body.verification.txt_value;
      dns.txt.set(`_folio-challenge.${hostname}`, [ta, tb]); // both hold a valid record at once
      const [ra, rb] = await Promise.all([
        dash(api, 'POST', `/projects/${pa.id}/domains/${hostname}/verify`, { auth: a.auth }),
        dash(api, 'POST', `/projects/${pb.id}/domains/${hostname}/verify`, { auth: b.auth }),
      ]);
      const results = [[pa.id, ra], [pb.id, rb]] as const;
      const winners = results.filter(([, r]) => r.status === 200);
      const losers = results.filter(([, r]) => r.status !== 200);
      t.equal(winners.length, 1, `round ${round}: one winner`);
      t.same(losers.map(([, r]) => [r.status, r.body]), [[409, { error: 'domain_taken', message: `Domain ${hostname} is already added to a project` }]]);
      t.same(await api.cp.m.Domain.find({ hostname }).lean().then((rows) => rows.map((d) => [d.project_id, d.status])), [[winners[0][0], 'verified']]);
      t.equal(await projectIdForHost(api.cp.m, 'localhost', hostname), winners[0][0]);
    }
  });

  t.test('should let the database hold one verified claim per hostname', async (t) => {
    const base = { org_id: 'o', verification_token: 't', status: 'verified' as const, verified_at: new Date() };
    await api.cp.m.Domain.create({ ...base, hostname: host('unique'), project_id: 'p1' });
    const err = await api.cp.m.Domain.create({ ...base, hostname: host('unique'), project_id: 'p2' }).catch((e) => e);
    t.equal(err.code, 11000);
    await api.cp.m.Domain.create({ ...base, status: 'pending' as const, verified_at: null, hostname: host('unique'), project_id: 'p3', expires_at: new Date(Date.now() + 1000) });
    t.equal(await api.cp.m.Domain.countDocuments({ hostname: host('unique') }), 2, 'pending claims beside a verified one are not refused by the index');
  });

  t.test('should refuse bad hostnames and other organizations\' projects', async (t) => {
    const a = await dashTenant(api, 'pro');
    const b = await dashTenant(api, 'pro');
    const pa = await api.project(await api.key(a.orgId));
    const hostname = host('shared');
    t.equal((await dash(api, 'POST', `/projects/${pa.id}/domains`, { auth: a.auth, body: { hostname } })).status, 201);
    const rule = 'Domain must be a hostname such as docs.example.com (letters, digits, hyphens, at least one dot, no port)';
    for (const bad of ['localhost', 'docs.example.com:8080', 'ftp://docs.example.com', 'https://localhost/docs', '-x.example.com', 'a..b.com']) {
      const res = await dash(api, 'POST', `/projects/${pa.id}/domains`, { auth: a.auth, body: { hostname: bad } });
      t.same([res.status, res.body], [400, { error: 'invalid_request', message: rule }], bad);
    }
    const ours = await dash(api, 'POST', `/projects/${pa.id}/domains`, { auth: a.auth, body: { hostname: 'evil.localhost' } });
    t.same([ours.status, ours.body], [400, { error: 'invalid_request', message: 'Domain must not be under localhost, the platform\'s own sites domain' }]);
    for (const [method, path] of [['GET', `/projects/${pa.id}/domains`], ['POST', `/projects/${pa.id}/domains/${hostname}/verify`], ['DELETE', `/projects/${pa.id}/domains/${hostname}`]]) {
      const res = await dash(api, method, path, { auth: b.auth });
      t.same([res.status, res.body], [404, { error: 'not_found', message: 'project not found' }], `${method} another organization's`);
    }
    const member = await dashTenant(api, 'pro', 'member');
    const pm = await api.project(await api.key(member.orgId));
    const refused = await dash(api, 'POST', `/projects/${pm.id}/domains`, { auth: member.auth, body: { hostname: host('m') } });
    t.same([refused.status, refused.body.error], [403, 'forbidden_role']);
  });

  t.test('should take the host of a pasted address', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'pro');
    const project = await api.project(await api.key(orgId));
    const pasted = [
      [`https://${host('pasted').toUpperCase()}/guide/intro?x=1#top`, host('pasted')],
      [`http://user:pw@${host('port')}:8443/`, host('port')],
      [`${host('path')}/guide`, host('path')],
      [`${host('dot')}.`, host('dot')],
    ];
    for (const [input, hostname] of pasted) {
      const res = await dash(api, 'POST', `/projects/${project.id}/domains`, { auth, body: { hostname: input } });
      t.same([res.status, res.body.hostname], [201, hostname], input);
    }
  });

  t.test('should count pending domains against max_custom_domains', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'free'); // free: 1 domain
    const project = await api.project(await api.key(orgId));
    t.equal((await dash(api, 'POST', `/projects/${project.id}/domains`, { auth, body: { hostname: host('one') } })).status, 201);
    const two = await dash(api, 'POST', `/projects/${project.id}/domains`, { auth, body: { hostname: host('two') } });
    t.same([two.status, two.body], [402, { error: 'plan_limit_reached', message: 'Your Free plan allows 1 custom domain; upgrade to add more', upgrade_url: 'https://folio.dev/pricing' }]);
    t.equal((await dash(api, 'DELETE', `/projects/${project.id}`, { auth })).status, 204);
    t.equal((await dash(api, 'GET', '/plan', { auth })).body.features.max_custom_domains.used, 0, 'a deleted project frees its domains');
  });

  t.test('should let pending claims lapse after 7 days: they no longer count, block or verify', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'free'); // free: 1 domain
    const project = await api.project(await api.key(orgId));
    const started = api.clock.now;
    t.teardown(() => { api.clock.now = started; });
    const first = host('lapse-one');
    t.equal((await dash(api, 'POST', `/projects/${project.id}/domains`, { auth, body: { hostname: first } })).status, 201);
    api.clock.now = new Date(started.getTime() + PENDING_DOMAIN_TTL_MS - 1);
    t.equal((await dash(api, 'POST', `/projects/${project.id}/domains`, { auth, body: { hostname: host('lapse-two') } })).status, 402, 'still counted just before');
    api.clock.now = new Date(started.getTime() + PENDING_DOMAIN_TTL_MS);
    t.same((await dash(api, 'GET', `/projects/${project.id}/domains`, { auth })).body.data, [], 'no longer listed');
    t.equal((await dash(api, 'GET', '/plan', { auth })).body.features.max_custom_domains.used, 0, 'no longer counted');
    dns.txt.set(`_folio-challenge.${first}`, ['anything']);
    const late = await dash(api, 'POST', `/projects/${project.id}/domains/${first}/verify`, { auth });
    t.same([late.status, late.body], [404, { error: 'not_found', message: 'domain not found' }]);
    const renewed = await dash(api, 'POST', `/projects/${project.id}/domains`, { auth, body: { hostname: first } });
    t.same([renewed.status, renewed.body.expires_at], [201, new Date(api.clock.now.getTime() + PENDING_DOMAIN_TTL_MS).toISOString()], 'the project may claim it again');
    t.equal(await api.cp.m.Domain.countDocuments({ hostname: first }), 1, 'the lapsed claim was replaced');
  });

  t.test('should carry claims stored with the hostname as id over', async (t) => {
    const { orgId } = await dashTenant(api, 'pro');
    const project = await api.project(await api.key(orgId));
    const created = new Date('2026-01-01T00:00:00Z');
    // (Two projects: the indexes exist already here, and two claims of one project without a hostname would collide.)
    await api.cp.m.Domain.collection.insertMany([
      { _id: host('legacy-verified') as never, org_id: orgId, project_id: project.id, status: 'verified', verification_token: 't1', created_at: created, verified_at: created },
      { _id: host('legacy-pending') as never, org_id: orgId, project_id: 'another-project', status: 'pending', verification_token: 't2', created_at: created, verified_at: null },
    ]);
    t.equal(await migrateLegacyDomains(api.cp.m.Domain), 2);
    t.equal(await projectIdForHost(api.cp.m, 'localhost', host('legacy-verified')), project.id, 'a verified one is served as before');
    const pending = await api.cp.m.Domain.findById(host('legacy-pending')).lean();
    t.same([pending?.hostname, pending?.expires_at], [host('legacy-pending'), new Date(created.getTime() + PENDING_DOMAIN_TTL_MS)]);
    t.equal(await migrateLegacyDomains(api.cp.m.Domain), 0, 'once');
  });
});
