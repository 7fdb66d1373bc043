import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { passwordGate } from '../../src/sites/password-gate.ts';
import { safeNext } from '../../src/sites/safe-next.ts';
import { hashSitePassword } from '../../src/sites/site-password.ts';
import { startTestApi } from '../helpers/api.ts';

// [the `next` form field as the browser would send it (form-encoded), the Location expected]
const OFFSITE: [string, string][] = [
  ['/%09/evil.example/x', '/'], // the tab a browser drops, leaving //evil.example/x
  ['/%0D%0A/evil.example/x', '/'],
  ['%0D%0A/guide', '/'],
  ['/%5C%5Cevil.example', '/'], // /\\evil.example
  ['/%5Cevil.example', '/'], // /\evil.example
  ['%5C/evil.example', '/'],
  ['//evil.example/x', '/'],
  ['%2F%2Fevil.example', '/'],
  ['/%252F/evil.example', '/'], // /%2F/evil.example: //evil.example once decoded
  ['/%255Cevil.example', '/'], // /%5Cevil.example
  ['/%2509/evil.example/x', '/'], // /%09/evil.example/x
  ['/%250D%250A/evil.example', '/'],
  ['+//evil.example', '/'], // a leading space
  ['/./%5Cevil.example', '/'], // /./\evil.example resolves to //evil.example
  ['/a/..//evil.example', '/'],
  ['/%252e%252e//evil.example', '/'],
  ['javascript:alert(1)', '/'],
  ['JaVaScRiPt%3Aalert(1)', '/'],
  ['https://evil.example/', '/'],
  ['http:evil.example', '/'],
  ['evil.example', '/'],
  ['/%25E0%25A4%25A', '/'], // a path that cannot be decoded
  ['', '/'],
];

const LOCAL: [string, string][] = [
  ['/guide', '/guide'],
  ['/guide%3Ftab%3Dapi%26q%3Da%2520b%23install', '/guide?tab=api&q=a%20b#install'],
  ['/guide?q=a+b', '/guide?q=a%20b'],
  ['/guide?next=//evil.example', '/guide?next=//evil.example'],
  ['/guide/%25E2%259C%2593', '/guide/%E2%9C%93'],
  ['/docs/%C3%BCber', '/docs/%C3%BCber'],
  ['/a/../guide', '/guide'],
];

t.test('the redirect after the site password form', async (t) => {
  t.test('should keep safeNext to a same-origin path for every form a browser reads', async (t) => {
    for (const [sent, expected] of [...OFFSITE, ...LOCAL]) {
      t.equal(safeNext(new URLSearchParams(`next=${sent}`).get('next')), expected, sent);
    }
    t.equal(safeNext(undefined), '/');
    t.equal(safeNext(`/${'a'.repeat(3000)}`), '/', 'a very long next');
  });

  const api = await startTestApi();
  t.teardown(() => api.close());
  const org = await api.org('pro');
  const project = await api.cp.m.Project.create({
    org_id: org.id, name: 'Secret', slug: `secret-${process.pid}`, status: 'active',
    site_password_hash: await hashSitePassword('open sesame'), site_password_set_at: new Date(),
  });
  // The gate alone behind a real HTTP server, with room for every attempt of the table.
  const gate = passwordGate({ m: api.cp.m, trustProxy: false, attempts: 1000 });
  const server = http.createServer((req, res) => {
    gate(req, res, project._id).then((r) => { if (r !== 'answered') res.end('page'); }, () => { res.statusCode = 500; res.end(); });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const signIn = async (next: string) => {
    const res = await fetch(`${base}/_folio/password`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `password=open+sesame&next=${next}`,
    });
    await res.arrayBuffer();
    return [res.status, res.headers.get('location')];
  };

  t.test('should redirect a signed-in visitor only within the site', async (t) => {
    for (const [sent, expected] of OFFSITE) t.same(await signIn(sent), [303, expected], sent);
  });

  t.test('should keep a valid path with its query and fragment', async (t) => {
    for (const [sent, expected] of LOCAL) t.same(await signIn(sent), [303, expected], sent);
  });
});
