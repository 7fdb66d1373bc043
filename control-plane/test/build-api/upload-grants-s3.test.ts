/**
 * Upload grants when the platform's store is S3: each grant is a presigned PUT straight to the
 * bucket (no byte through the control plane), with its size, Content-Type and Cache-Control
 * signed and a short expiry; what the key held is preserved by a server-side copy first. The
 * bucket is s3rver behind s3-signing-front.ts, which checks the signatures s3rver does not.
 */
import t from 'tap';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { createS3Store } from '@folio/builder';
import { GRANT_TTL_MS } from '../../src/build-api/upload-grants.ts';
import { startS3Server } from '../../../builder/test/helpers/s3-server.ts';
import { startGrantApi } from './grant-fixture.ts';
import { startSigningFront } from './s3-signing-front.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString('utf8') : undefined);

t.test('upload grants on S3', async (t) => {
  const s3 = await startS3Server();
  t.teardown(() => s3.close());
  const front = await startSigningFront(s3.endpoint, s3.bucket, 'S3RVER');
  t.teardown(() => front.close());
  const client = s3.client();
  const store = createS3Store({ bucket: s3.bucket, client });
  const g = await startGrantApi(store, { S3_BUCKET: s3.bucket, S3_ENDPOINT: front.endpoint, S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
  t.teardown(() => g.api.close());

  t.test('should grant presigned PUTs that write the object, its type and caching, straight into the bucket', async (t) => {
    const job = await g.claimed();
    const live = `sites/${job.projectId}/guide/a b.html`;
    await store.put(live, bytes('live'));
    const res = await g.grant(job, { objects: [{ key: 'guide/a b.html', size: 9 }, { key: '_folio/cache/summaries.json', size: 2, content_type: 'application/json', cache_control: 'no-store' }] });
    t.equal(res.status, 200, JSON.stringify(res.body));
    const [page, state] = res.body.objects;
    t.ok(page.url.startsWith(`${front.endpoint}/${s3.bucket}/sites/${job.projectId}/guide/a%20b.html?`), page.url);
    const query = new URL(page.url).searchParams;
    t.equal(query.get('X-Amz-SignedHeaders'), 'cache-control;content-length;content-type;host', 'size, type and caching are signed');
    t.ok(Number(query.get('X-Amz-Expires')) <= GRANT_TTL_MS / 1000, `expires in ${query.get('X-Amz-Expires')} s`);
    // Preserved before the grant, by a copy inside the bucket.
    const [entry] = await g.api.cp.m.PublishJournal.find({ deployment_id: job.id, key: live }).lean();
    t.equal(text(await store.get(entry.copy_key!)), 'live', 'the live object was copied under rollback/ first');
    const seen = g.seen.length;
    t.same(await g.upload(page, bytes('new page!')), { status: 200, body: undefined });
    t.same(await g.upload(state, bytes('{}')), { status: 200, body: undefined });
    t.same(g.seen.slice(seen), [], 'no request reached the control plane');
    t.same(front.puts.slice(-2), [live, `state/${job.projectId}/summaries.json`]);
    t.equal(text(await store.get(live)), 'new page!');
    const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: live }));
    t.same([head.ContentType, head.CacheControl], ['text/html; charset=utf-8', 'public, max-age=0, must-revalidate']);
    const stateHead = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `state/${job.projectId}/summaries.json` }));
    t.same([stateHead.ContentType, stateHead.CacheControl], ['application/json', 'no-store']);
  });

  t.test('should have the store refuse a presigned URL used for another key, size or type, or after it expired', async (t) => {
    const job = await g.claimed();
    const [grant] = (await g.grant(job, { objects: [{ key: 'x.html', size: 4 }] })).body.objects;
    const denied = { status: 403 };
    t.match(await g.upload(grant, bytes('12345')), denied, 'another size');
    t.match(await g.upload(grant, bytes('1234'), { 'content-type': 'text/plain' }), denied, 'another type');
    t.match(await g.upload(grant, bytes('1234'), { 'cache-control': 'public, max-age=31536000' }), denied, 'another caching');
    t.match(await g.upload({ ...grant, url: grant.url.replace('/x.html?', '/y.html?') }, bytes('1234')), denied, 'another key of the same site');
    t.match(await g.upload({ ...grant, url: grant.url.replace(`/sites/${job.projectId}/`, '/sites/another-project/') }, bytes('1234')), denied, 'another project\'s key');
    t.equal(await store.head(`sites/${job.projectId}/y.html`), undefined);
    t.equal(await store.head('sites/another-project/x.html'), undefined);
    // Signed ten minutes ago (the control plane's clock): expired for the store, which reads its own.
    const saved = g.api.clock.now;
    t.teardown(() => { g.api.clock.now = saved; });
    g.api.clock.now = new Date(Date.now() - 10 * 60_000);
    const old = await g.claimed();
    const [stale] = (await g.grant(old, { objects: [{ key: 'x.html', size: 4 }] })).body.objects;
    t.match(await g.upload(stale, bytes('1234')), denied, 'expired');
    t.equal(await store.head(`sites/${old.projectId}/x.html`), undefined);
    g.api.clock.now = saved;
    t.same(await g.upload(grant, bytes('1234')), { status: 200, body: undefined }, 'the grant itself works');
  });
});
