/**
 * Upload grants over the local store (the embedded default): a build asks for a batch of keys and
 * PUTs each object's bytes to the control plane's signed upload route, which writes that key only,
 * that size only, until the grant expires; keys stay in the deployment's own prefixes; what a key
 * held is preserved first, so a failed build is undone, grants and all. S3's presigned grants:
 * upload-grants-s3.test.ts.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createLocalDirStore } from '@folio/builder';
import { GRANT_TTL_MS } from '../../src/build-api/upload-grants.ts';
import { claimJob } from '../../src/deploy/claim-job.ts';
import { GRANT_SETTLE_MS } from '../../src/deploy/publish-rollback.ts';
import { startGrantApi } from './grant-fixture.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString('utf8') : undefined);

t.test('upload grants on the local store', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-grants-'));
  const store = createLocalDirStore(root);
  // Short leases: a grant ends with the lease, and the restore below waits for the last grant.
  const g = await startGrantApi(store, { BUILD_LEASE_MS: '3000' });
  t.teardown(async () => { await g.api.close(); fs.rmSync(root, { recursive: true, force: true }); });
  const { api } = g;

  t.test('should grant a batch and write each object straight to its own key in the deployment\'s prefixes', async (t) => {
    const job = await g.claimed();
    const res = await g.grant(job, { objects: [{ key: 'guide/index.html', size: 5 }, { key: '_folio/cache/manifest.json.gz', size: 3, content_type: 'application/gzip', cache_control: 'no-store' }] });
    t.equal(res.status, 200, JSON.stringify(res.body));
    t.equal(res.body.objects.length, 2);
    t.ok(res.body.expires_in_ms > 1000 && res.body.expires_in_ms <= GRANT_TTL_MS, `expires in ${res.body.expires_in_ms} ms`);
    const [page, state] = res.body.objects;
    t.same(page.headers, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=0, must-revalidate' }, 'defaults from the key');
    t.match(page.url, /^\/internal\/v1\/uploads\//, 'a URL of the control plane\'s own upload route');
    t.same(await g.upload(page, bytes('hello')), { status: 204, body: undefined });
    t.same(await g.upload(state, bytes('abc')), { status: 204, body: undefined });
    t.equal(text(await store.get(`sites/${job.projectId}/guide/index.html`)), 'hello');
    t.equal(text(await store.get(`state/${job.projectId}/manifest.json.gz`)), 'abc', 'the builder\'s state goes to the state prefix');
    const journal = await api.cp.m.PublishJournal.find({ deployment_id: job.id }).lean();
    t.same(journal.map((e) => e.key).sort(), [`sites/${job.projectId}/guide/index.html`, `state/${job.projectId}/manifest.json.gz`], 'both keys journaled before they were granted');
  });

  t.test('should refuse a grant used for another size, another type, another key, or after it expired', async (t) => {
    const job = await g.claimed();
    const key = `sites/${job.projectId}/a.html`;
    const [grant] = (await g.grant(job, { objects: [{ key: 'a.html', size: 4 }] })).body.objects;
    const refused = { status: 403, body: { error: 'grant_refused', message: String } };
    t.match(await g.upload(grant, bytes('12345')), refused, 'another size');
    t.match(await g.upload(grant, bytes('1234'), { 'content-type': 'text/plain' }), refused, 'another type');
    const [payload, mac] = grant.url.split('/').pop().split('.');
    const forged = Buffer.from(Buffer.from(payload, 'base64url').toString('utf8').replace('a.html', 'b.html')).toString('base64url');
    t.match(await g.upload({ ...grant, url: `/internal/v1/uploads/${forged}.${mac}` }, bytes('1234')), refused, 'another key with the same signature');
    t.match(await g.upload({ ...grant, url: `/internal/v1/uploads/${payload}` }, bytes('1234')), refused, 'no signature');
    t.equal(await store.get(key), undefined, 'nothing written');
    const saved = api.clock.now;
    api.clock.now = new Date(saved.getTime() + GRANT_TTL_MS + 1);
    t.teardown(() => { api.clock.now = saved; });
    t.match(await g.upload(grant, bytes('1234')), { status: 403, body: { error: 'grant_refused', message: /expired/ } }, 'expired');
    t.equal(await store.get(key), undefined, 'nothing written');
    api.clock.now = saved;
    t.same(await g.upload(grant, bytes('1234')), { status: 204, body: undefined }, 'the grant itself works');
    // Chunked, without a Content-Length: refused before any byte is stored.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(new URL(grant.url, g.origin), { method: 'PUT', headers: { ...grant.headers, 'transfer-encoding': 'chunked' } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => { body += c.toString(); });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end('1234');
    });
    t.match([chunked.status, JSON.parse(chunked.body)], [411, { error: 'length_required', message: /Content-Length/ }], 'no declared size');
    const get = await fetch(`${g.origin}${grant.url}`);
    t.same([get.status, get.headers.get('allow')], [405, 'PUT'], 'the upload route takes PUT only');
    await get.body?.cancel();
  });

  t.test('should confine every key to the deployment\'s own prefixes', async (t) => {
    const job = await g.claimed();
    const other = await g.claimed();
    await store.put(`sites/${other.projectId}/index.html`, bytes('theirs'));
    for (const key of ['../other/index.html', 'a/../../b', '/abs', 'a//b', './a']) {
      t.match(await g.grant(job, { objects: [{ key: 'ok.html', size: 1 }, { key, size: 1 }] }), { status: 400, body: { error: 'invalid_request', message: /^objects\.1\.key: / } }, key);
    }
    // Keys are relative to the site: another project's or the rollback prefix is a path inside this one.
    const res = await g.grant(job, { objects: [{ key: `sites/${other.projectId}/index.html`, size: 4 }, { key: `rollback/${job.id}/x.html`, size: 4 }] });
    t.equal(res.status, 200);
    for (const grant of res.body.objects) t.equal((await g.upload(grant, bytes('mine'))).status, 204);
    t.equal(text(await store.get(`sites/${other.projectId}/index.html`)), 'theirs', 'another project\'s site is untouched');
    t.equal(text(await store.get(`sites/${job.projectId}/sites/${other.projectId}/index.html`)), 'mine');
    t.equal(text(await store.get(`sites/${job.projectId}/rollback/${job.id}/x.html`)), 'mine');
    t.same((await store.list('rollback/')).filter((k) => k.includes('x.html')), [], 'nothing reaches the rollback prefix');
  });

  t.test('should answer bad requests with a clear 4xx', async (t) => {
    const job = await g.claimed();
    const auth = { authorization: `Bearer ${job.token}`, 'x-folio-fencing': String(job.fencing), 'content-type': 'application/json' };
    const cases: Array<[string, unknown, Record<string, string> | undefined, number, string, RegExp]> = [
      ['no objects', { objects: [] }, undefined, 400, 'invalid_request', /^objects: /],
      ['too many objects', { objects: Array.from({ length: 257 }, (_, i) => ({ key: `p/${i}.html`, size: 1 })) }, undefined, 400, 'invalid_request', /at most 256/],
      ['no body', {}, undefined, 400, 'invalid_request', /^objects: Required/],
      ['an unknown field', { objects: [{ key: 'a.html', size: 1, acl: 'public-read' }] }, undefined, 400, 'invalid_request', /^objects\.0\.acl: Unexpected key/],
      ['a negative size', { objects: [{ key: 'a.html', size: -1 }] }, undefined, 400, 'invalid_request', /^objects\.0\.size: /],
      ['a header value with a line break', { objects: [{ key: 'a.html', size: 1, content_type: 'text/html\r\nx-amz-acl: public-read' }] }, undefined, 400, 'invalid_request', /^objects\.0\.content_type: /],
      ['an object over the limit', { objects: [{ key: 'big.bin', size: 513 * 1024 * 1024 }] }, undefined, 413, 'payload_too_large', /big\.bin/],
      ['malformed JSON', '{"objects": [', undefined, 400, 'invalid_request', /./],
      ['no build token', { objects: [{ key: 'a.html', size: 1 }] }, { 'x-folio-fencing': '1', 'content-type': 'application/json' }, 401, 'unauthorized', /build token/],
      ['no fencing token', { objects: [{ key: 'a.html', size: 1 }] }, { authorization: auth.authorization, 'content-type': 'application/json' }, 400, 'invalid_request', /^X-Folio-Fencing: /],
      ['another build\'s token', { objects: [{ key: 'a.html', size: 1 }] }, { ...auth, authorization: 'Bearer bt_not-this-one' }, 409, 'lease_lost', /lease/],
      ['a stale fencing token', { objects: [{ key: 'a.html', size: 1 }] }, { ...auth, 'x-folio-fencing': String(job.fencing + 1) }, 409, 'lease_lost', /lease/],
    ];
    for (const [what, body, headers, status, error, message] of cases) {
      t.match(await g.grant(job, body, headers ?? auth), { status, body: { error, message } }, what);
    }
    t.equal(await api.cp.m.PublishJournal.countDocuments({ deployment_id: job.id }), 0, 'nothing refused was journaled');
  });

  t.test('should grant nothing once the deployment ended or was taken over, and renew the lease while it builds', async (t) => {
    const ended = await g.claimed();
    t.equal((await g.complete(ended, 'deployed')).status, 204);
    t.match(await g.grant(ended, { objects: [{ key: 'a.html', size: 1 }] }), { status: 409, body: { error: 'lease_lost' } }, 'deployed');
    const job = await g.claimed(5_000);
    const saved = api.clock.now;
    t.teardown(() => { api.clock.now = saved; });
    api.clock.now = new Date(saved.getTime() + 4_500);
    const res = await g.grant(job, { objects: [{ key: 'a.html', size: 1 }] });
    t.equal(res.status, 200, 'half a second of lease left: granted');
    const leaseEnd = (await api.cp.m.Deployment.findById(job.id).lean())!.lease_expires_at!.getTime();
    t.equal(leaseEnd, api.clock.now.getTime() + api.cp.deps.env.BUILD_LEASE_MS, 'the lease renewed as a heartbeat would');
    t.ok(res.body.expires_in_ms <= api.cp.deps.env.BUILD_LEASE_MS, 'the grant ends with it at the latest');
    // The lease runs out and another worker takes the deployment over: the old token gets nothing.
    api.clock.now = new Date(leaseEnd + 1_000);
    for (let i = 0; i < 20 && (await api.cp.m.Deployment.findById(job.id).lean())!.fencing === job.fencing; i++) await claimJob(api.cp.m, 'worker-2', api.clock.now);
    t.equal((await api.cp.m.Deployment.findById(job.id).lean())!.fencing, job.fencing + 1, 'taken over');
    t.match(await g.grant(job, { objects: [{ key: 'a.html', size: 1 }] }), { status: 409, body: { error: 'lease_lost' } }, 'after a takeover');
  });

  t.test('should undo granted uploads of a failed attempt only after its grants expired', async (t) => {
    // The clock is real here: the restore waits out the grants in real time.
    api.clock.now = new Date();
    const job = await g.claimed(3_000);
    const live = `sites/${job.projectId}/index.html`;
    await store.put(live, bytes('live page'));
    const res = await g.grant(job, { objects: [{ key: 'index.html', size: 8 }, { key: 'new.html', size: 3 }] });
    t.ok(res.body.expires_in_ms <= 3_000, 'a grant never outlives the lease');
    const [page, added] = res.body.objects;
    t.equal((await g.upload(page, bytes('new page'))).status, 204);
    t.equal((await g.upload(added, bytes('new'))).status, 204);
    t.equal(text(await store.get(live)), 'new page');
    const raw = await api.cp.m.Deployment.collection.findOne({ _id: job.id } as never) as { grants_until?: Date } | null;
    t.ok(raw?.grants_until instanceof Date, 'the latest grant expiry is recorded on the deployment');
    const started = Date.now();
    t.equal((await g.complete(job, 'failed')).status, 204);
    t.ok(Date.now() >= raw!.grants_until!.getTime() + GRANT_SETTLE_MS - 50, 'the failure was recorded after every grant expired');
    t.equal(text(await store.get(live)), 'live page', 'the live page is back, byte for byte');
    t.equal(await store.get(`sites/${job.projectId}/new.html`), undefined, 'the added page is gone');
    api.clock.now = new Date();
    t.match(await g.upload(page, bytes('new page')), { status: 403, body: { error: 'grant_refused' } }, 'a grant used after the restore is refused');
    t.equal(text(await store.get(live)), 'live page');
    t.comment(`restore waited ${Date.now() - started} ms`);
  });
});
