/**
 * The worker's page reports, against a recording HTTP server on 127.0.0.1: sent in requests
 * under the control plane's limits, a page too large to store refused before anything is sent,
 * and a 413 from the page-report route taken as the customer's error (never retried).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { ControlPlaneClient, MAX_PAGES_REPORT_BYTES, type BuildJob, type PageRecord } from '../../src/worker/control-plane-client.ts';

const MiB = 1024 * 1024;
const JOB: BuildJob = { deployment_id: 'd1', fencing: 3, token: 'bt_test', lease_ms: 30_000, commit_sha: null, project: { id: 'p1', slug: 'p' }, site: { prefix: 'sites/p1/', url: 'https://p.example' } };
const page = (path: string, htmlBytes: number): PageRecord => ({ path, title: path, description: '', version: 'latest', source_mdx: '', compiled_html: 'x'.repeat(htmlBytes), search_text: '' });

/** A control plane stand-in recording each page report; `answer` decides the status and body. */
async function recorder(answer: (body: { upserts: PageRecord[] }) => { status: number; body?: unknown } = () => ({ status: 204 })) {
  const requests: Array<{ bytes: number; paths: string[]; deletes: string[] }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = JSON.parse(raw.toString('utf8')) as { fencing: number; upserts: PageRecord[]; deletes: string[] };
      requests.push({ bytes: raw.length, paths: body.upserts.map((p) => p.path), deletes: body.deletes });
      const out = answer(body);
      res.statusCode = out.status;
      if (out.body !== undefined) res.setHeader('content-type', 'application/json');
      res.end(out.body === undefined ? undefined : JSON.stringify(out.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { requests, client: new ControlPlaneClient(url), close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

t.test('page reports', async (t) => {
  await t.test('should send pages in requests under the body limit', async (t) => {
    const cp = await recorder();
    t.teardown(cp.close);
    // Three pages of 12 MiB: two fit one 32 MiB request, not three.
    await cp.client.pages(JOB, [page('/a', 12 * MiB), page('/b', 12 * MiB), page('/c', 12 * MiB), page('/d', 10)], ['/gone']);
    t.same(cp.requests.map((r) => [r.paths, r.deletes]), [[['/a', '/b'], []], [['/c', '/d'], []], [[], ['/gone']]]);
    t.ok(cp.requests.every((r) => r.bytes <= MAX_PAGES_REPORT_BYTES), `request sizes ${cp.requests.map((r) => r.bytes).join(', ')}`);
  });

  await t.test('should refuse a page too large to store before sending anything', async (t) => {
    const cp = await recorder();
    t.teardown(cp.close);
    const err = await cp.client.pages(JOB, [page('/small', 10), page('/huge', 16 * MiB)], []).catch((e: unknown) => e);
    t.match(err, { name: 'BuilderError', kind: 'user', code: 'page_too_large', file: '/huge' });
    t.equal(String(err), '/huge: Unexpected page of 16.0 MB (its source, HTML and search text together); expected at most 15.0 MB: split it into smaller pages');
    t.same(cp.requests, []);
  });

  await t.test('should take a 413 from the page-report route as the customer\'s error, with its message', async (t) => {
    const message = '/a: Unexpected page of 17.0 MB (its source, HTML and search text together); expected at most 16.0 MB, the size of one stored page: split it into smaller pages';
    const cp = await recorder(() => ({ status: 413, body: { error: 'page_too_large', message } }));
    t.teardown(cp.close);
    const err = await cp.client.pages(JOB, [page('/a', 10)], []).catch((e: unknown) => e);
    t.match(err, { name: 'BuilderError', kind: 'user', code: 'page_too_large', message });
  });

  await t.test('should take other failures of the route as the platform\'s (retried)', async (t) => {
    const cp = await recorder(() => ({ status: 500, body: { error: 'internal_error', message: 'Internal server error' } }));
    t.teardown(cp.close);
    const err = await cp.client.pages(JOB, [page('/a', 10)], []).catch((e: unknown) => e);
    t.match(err, { name: 'BuilderError', kind: 'app', code: 'control_plane_error' });
  });
});
