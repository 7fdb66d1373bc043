/**
 * The client's address behind a trusted proxy is the entry that proxy wrote (the rightmost of
 * X-Forwarded-For), never one the client wrote; without a trusted proxy the header is ignored,
 * in the API's own address (audit entries) as in the helpers the limits use.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { hashAuditIp } from '../../src/audit/record.ts';
import { clientAddress } from '../../src/http/client-address.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { rawRequest } from '../helpers/raw-http.ts';

t.test('client address', async (t) => {
  t.test('should take the rightmost X-Forwarded-For entry behind a trusted proxy and ignore the header otherwise', async (t) => {
    const server = http.createServer((req, res) => res.end(JSON.stringify([clientAddress(req, true), clientAddress(req, false)])));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const port = (server.address() as AddressInfo).port;
    const cases: [Record<string, string>, string][] = [
      [{}, '127.0.0.1'],
      [{ 'x-forwarded-for': '203.0.113.7' }, '203.0.113.7'],
      // A client-written first entry, then the one the proxy appended.
      [{ 'x-forwarded-for': '198.51.100.1, 203.0.113.7' }, '203.0.113.7'],
      [{ 'x-forwarded-for': '198.51.100.1,203.0.113.7 , ' }, '203.0.113.7'],
      [{ 'x-forwarded-for': '::ffff:203.0.113.8' }, '203.0.113.8'],
      [{ 'x-forwarded-for': ' , ' }, '127.0.0.1'],
    ];
    for (const [headers, trusted] of cases) {
      const res = await rawRequest(port, 'GET', '/', headers);
      t.same(res.body, [trusted, '127.0.0.1'], JSON.stringify(headers));
    }
  });

  t.test('should record the socket address in audit entries when no proxy is trusted, and the proxy-written one when it is', async (t) => {
    for (const trust of ['false', 'true']) {
      const tp = await startTestPlatform({ TRUST_PROXY: trust });
      t.teardown(() => tp.close());
      const project = (await tp.api('POST', '/projects', { name: 'Audit', slug: `audit-${trust}` })).body;
      const res = await rawRequest(tp.p.cp.port, 'POST', `/v1/projects/${project.id}/deployments`, { authorization: `Bearer ${tp.key}`, 'x-forwarded-for': '198.51.100.1, 203.0.113.7' });
      t.equal(res.status, 202, trust);
      const entry = await tp.p.cp.m.AuditEntry.findOne({ org_id: tp.orgId, action: 'deployment.triggered' }).lean();
      t.equal(entry?.ip_hash, await hashAuditIp(tp.p.cp.m, trust === 'true' ? '203.0.113.7' : '127.0.0.1'), `TRUST_PROXY=${trust}`);
    }
  });
});
