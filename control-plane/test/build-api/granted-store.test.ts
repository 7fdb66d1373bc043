/**
 * The builder's store for a build (`createGrantedStore`) against a real control plane over the
 * local store: puts are granted in batches and uploaded to the granted URLs, a refused grant is
 * renewed once, a lost lease is `LeaseLostError`, reads and deletes stay on the object routes, and
 * a control plane without the grants route is published to through its object PUT route.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createLocalDirStore } from '@folio/builder';
import { LeaseLostError } from '@folio/builder/internal/errors.ts';
import { createGrantedStore } from '@folio/builder/internal/store/granted-store.ts';
import { LOCAL_UPLOAD_PATH } from '../../src/build-api/local-upload-grant.ts';
import { startGrantApi, type Claimed } from './grant-fixture.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString('utf8') : undefined);

t.test('the granted store', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-granted-store-'));
  const store = createLocalDirStore(root);
  // Test hooks: a first upload of a key named here is refused with 403 (a grant the store refused);
  // `older` plays a control plane from before grants (no such route: 404).
  const refuseOnce = new Set<string>();
  let older = false;
  const g = await startGrantApi(store, {}, async (ctx, next) => {
    if (older && ctx.path.endsWith('/uploads')) { ctx.status = 404; ctx.body = { error: 'not_found', message: 'route not found' }; return; }
    const key = ctx.path.startsWith(LOCAL_UPLOAD_PATH) ? refusedKey(ctx.path) : undefined;
    if (key) { refuseOnce.delete(key); ctx.status = 403; ctx.body = { error: 'grant_refused', message: 'Upload grant expired; ask for a new one' }; return; }
    await next();
  });
  const refusedKey = (p: string) => [...refuseOnce].find((k) => Buffer.from(p.slice(LOCAL_UPLOAD_PATH.length).split('.')[0], 'base64url').toString('utf8').includes(`"${k}"`));
  t.teardown(async () => { await g.api.close(); fs.rmSync(root, { recursive: true, force: true }); });
  const storeOf = (job: Claimed, fencing = job.fencing) => createGrantedStore({ url: `${g.origin}/internal/v1/jobs/${job.id}/objects`, token: job.token, fencing });
  const count = (re: RegExp) => g.seen.filter((s) => re.test(s)).length;

  t.test('should upload 300 puts with a few batched grant requests, none through the object routes', async (t) => {
    const job = await g.claimed();
    const s = storeOf(job);
    const before = g.seen.length;
    await Promise.all(Array.from({ length: 300 }, (_, i) => s.put(`p/${i}.html`, bytes(`page ${i}`))));
    const requests = g.seen.slice(before);
    // The first 256 together; the other 44 as uploads free their places, in batches of whatever asked within a few ms.
    const asked = requests.filter((r) => r.endsWith('/uploads')).length;
    t.ok(asked >= 2 && asked <= 45, `${asked} grant requests`);
    t.equal(requests.filter((r) => r.startsWith(`PUT ${LOCAL_UPLOAD_PATH}`)).length, 300);
    t.equal(requests.filter((r) => r.startsWith('PUT /internal/v1/jobs/')).length, 0, 'the object PUT route was not used');
    t.equal(text(await store.get(`sites/${job.projectId}/p/299.html`)), 'page 299');
    // Reads, lists and deletes: the object routes.
    t.equal(text(await s.get('p/7.html')), 'page 7');
    t.match(await s.head('p/7.html'), { etag: /^[0-9a-f]{32}$/, size: 6 });
    t.equal((await s.list('p/')).length, 300);
    await s.delete(['p/7.html']);
    t.equal(await store.get(`sites/${job.projectId}/p/7.html`), undefined);
    t.equal(count(new RegExp(`^DELETE /internal/v1/jobs/${job.id}/objects/p/7.html$`)), 1);
  });

  t.test('should renew a grant the store refused, once', async (t) => {
    const job = await g.claimed();
    const s = storeOf(job);
    refuseOnce.add(`sites/${job.projectId}/retry.html`);
    const grants = count(/\/uploads$/);
    await s.put('retry.html', bytes('second try'));
    t.equal(text(await store.get(`sites/${job.projectId}/retry.html`)), 'second try');
    t.equal(count(/\/uploads$/) - grants, 2, 'a fresh grant for the retry');
  });

  t.test('should fail a lost lease with LeaseLostError and write nothing', async (t) => {
    const job = await g.claimed();
    await t.rejects(storeOf(job, job.fencing + 1).put('lost.html', bytes('x')), LeaseLostError);
    t.equal(await store.get(`sites/${job.projectId}/lost.html`), undefined);
  });

  t.test('should publish through the object PUT route of a control plane without grants', async (t) => {
    older = true;
    t.teardown(() => { older = false; });
    const job = await g.claimed();
    const s = storeOf(job);
    await Promise.all(['a.html', 'b.html'].map((k) => s.put(k, bytes(k))));
    await s.put('c.html', bytes('c.html'));
    t.equal(text(await store.get(`sites/${job.projectId}/c.html`)), 'c.html');
    t.equal(count(new RegExp(`^POST /internal/v1/jobs/${job.id}/uploads$`)), 1, 'asked once, then never again');
    t.equal(count(new RegExp(`^PUT /internal/v1/jobs/${job.id}/objects/`)), 3);
  });
});
