import t from 'tap';
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
      verification: { txt_name: `_folio-challenge.${hostname}`, txt_value: `folio-verify=${token}`, http_path: '/.well-known/folio-verify.txt', http_body: token },
    });
    t.equal(await projectIdForHost(api.cp.m, 'localhost', hostname), undefined, 'not served while pending');
    dns.txt.set(`_folio-challenge.${hostname}`, ['folio-verify=someone-else']);
    const failed = await dash(api, 'POST', `/projects/${project.id}/domains/${hostname}/verify`, { auth });
    t.equal(failed.status, 409);
    t.equal(failed.body.error, 'verification_failed');
    t.match(failed.body.message, `${hostname} is not verified yet: DNS: TXT _folio-challenge.${hostname} has 1 record(s), none is folio-verify=${token}; HTTP: http://${hostname}/.well-known/folio-verify.txt could not be read`);
    dns.txt.set(`_folio-challenge.${hostname}`, ['other', `folio-verify=${token}`]);
    const verified = await dash(api, 'POST', `/projects/${project.id}/domains/${hostname}/verify`, { auth });
    t.same([verified.status, verified.body.status, verified.body.verified_at], [200, 'verified', api.clock.now.toISOString()]);
    t.equal(await projectIdForHost(api.cp.m, 'localhost', `${hostname}:443`), project.id, 'served once verified');
    t.equal((await api.request('GET', `/projects/${project.id}`, { key: await api.key(orgId) })).body.custom_domain, hostname, '/v1 shows the primary domain');
    t.same((await dash(api, 'GET', `/projects/${project.id}/domains`, { auth })).body.data.map((d: any) => [d.hostname, d.status]), [[hostname, 'verified']]);
    t.equal((await dash(api, 'DELETE', `/projects/${project.id}/domains/${hostname}`, { auth })).status, 204);
    t.equal(await projectIdForHost(api.cp.m, 'localhost', hostname), undefined, 'not served once removed');
    t.equal((await dash(api, 'GET', `/projects/${project.id}`, { auth })).body.custom_domain, null);
  });

  t.test('should keep one hostname to one project and refuse bad hostnames', async (t) => {
    const a = await dashTenant(api, 'pro');
    const b = await dashTenant(api, 'pro');
    const pa = await api.project(await api.key(a.orgId));
    const pb = await api.project(await api.key(b.orgId));
    const hostname = host('shared');
    t.equal((await dash(api, 'POST', `/projects/${pa.id}/domains`, { auth: a.auth, body: { hostname } })).status, 201);
    const taken = await dash(api, 'POST', `/projects/${pb.id}/domains`, { auth: b.auth, body: { hostname } });
    t.same([taken.status, taken.body], [409, { error: 'domain_taken', message: `hostname: ${hostname} is already added to a project` }]);
    const rule = 'hostname: must be a hostname such as docs.example.com (letters, digits, hyphens, at least one dot, no port)';
    for (const bad of ['localhost', 'docs.example.com:8080', 'http://docs.example.com', '-x.example.com', 'a..b.com']) {
      const res = await dash(api, 'POST', `/projects/${pa.id}/domains`, { auth: a.auth, body: { hostname: bad } });
      t.same([res.status, res.body], [400, { error: 'invalid_request', message: rule }], bad);
    }
    const ours = await dash(api, 'POST', `/projects/${pa.id}/domains`, { auth: a.auth, body: { hostname: 'evil.localhost' } });
    t.same([ours.status, ours.body], [400, { error: 'invalid_request', message: 'hostname: must not be under localhost, the platform\'s own sites domain' }]);
    for (const [method, path] of [['GET', `/projects/${pa.id}/domains`], ['POST', `/projects/${pa.id}/domains/${hostname}/verify`], ['DELETE', `/projects/${pa.id}/domains/${hostname}`]]) {
      const res = await dash(api, method, path, { auth: b.auth });
      t.same([res.status, res.body], [404, { error: 'not_found', message: 'project not found' }], `${method} another organization's`);
    }
    const member = await dashTenant(api, 'pro', 'member');
    const pm = await api.project(await api.key(member.orgId));
    const refused = await dash(api, 'POST', `/projects/${pm.id}/domains`, { auth: member.auth, body: { hostname: host('m') } });
    t.same([refused.status, refused.body.error], [403, 'forbidden_role']);
  });

  t.test('should count pending domains against max_custom_domains', async (t) => {
    const { auth, orgId } = await dashTenant(api, 'free'); // free: 1 domain
    const project = await api.project(await api.key(orgId));
    t.equal((await dash(api, 'POST', `/projects/${project.id}/domains`, { auth, body: { hostname: host('one') } })).status, 201);
    const two = await dash(api, 'POST', `/projects/${project.id}/domains`, { auth, body: { hostname: host('two') } });
    t.same([two.status, two.body], [402, { error: 'plan_limit_reached', message: 'Your Free plan allows 1 of max_custom_domains; upgrade to create more', upgrade_url: 'https://folio.dev/pricing' }]);
    t.equal((await dash(api, 'DELETE', `/projects/${project.id}`, { auth })).status, 204);
    t.equal((await dash(api, 'GET', '/plan', { auth })).body.features.max_custom_domains.used, 0, 'a deleted project frees its domains');
  });
});
