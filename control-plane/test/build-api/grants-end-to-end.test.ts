/**
 * A real worker deploys through a real control plane whose store is S3 (s3rver behind the
 * signature-checking front of s3-signing-front.ts): every file of the site goes straight to the
 * bucket with upload grants, none through the control plane's object PUT route (which is the only
 * way a build's bytes reach the platform's store object, counted here); and a build the bucket
 * refuses after its grant uploads (the builder's manifest, its last write) leaves the site and
 * the builder state byte for byte as the last deployment left them.
 */
import { createHash } from 'node:crypto';
import t from 'tap';
import { createS3Store, type ObjectStore } from '@folio/builder';
import { startS3Server } from '../../../builder/test/helpers/s3-server.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { startSigningFront } from './s3-signing-front.ts';

const PAGES = 6;
const page = (i: number, marker: string) => `---\ntitle: Page ${i}\n---\n\nMarker ${marker}-page-${i}.\n`;
const pages = (marker: string) => Object.fromEntries(Array.from({ length: PAGES }, (_, i) => [`docs/page-${i}.mdx`, page(i, marker)]));

t.test('publishing with upload grants to S3', async (t) => {
  const s3 = await startS3Server();
  t.teardown(() => s3.close());
  const front = await startSigningFront(s3.endpoint, s3.bucket, 'S3RVER');
  t.teardown(() => front.close());
  const inner = createS3Store({ bucket: s3.bucket, client: s3.client() });
  // Every write the control plane makes into the store object (the object PUT route's, among others).
  const written: string[] = [];
  const store: ObjectStore = {
    ...inner,
    put: (key, bytes, o) => { written.push(key); return inner.put(key, bytes, o); },
    putStream: (key, body, o) => { written.push(key); return inner.putStream(key, body, o); },
  };
  const tp = await startTestPlatform({
    BUILD_LEASE_MS: '5000', S3_BUCKET: s3.bucket, S3_ENDPOINT: front.endpoint, S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER',
  }, { store });
  t.teardown(() => tp.close());
  const project = (await tp.api('POST', '/projects', { name: 'Granted', slug: 'granted-site' })).body;
  const prefixes = [`sites/${project.id}/`, `state/${project.id}/`];
  const ours = (key: string) => prefixes.some((p) => key.startsWith(p));
  const snapshot = async () => Object.fromEntries(await Promise.all((await Promise.all(prefixes.map((p) => inner.list(p)))).flat()
    .map(async (k) => [k, createHash('sha256').update((await inner.get(k))!).digest('hex')] as const)));
  const served = async () => Object.fromEntries(await Promise.all(Array.from({ length: PAGES }, async (_, i) => {
    const res = await tp.site('granted-site', `/page-${i}`);
    return [i, `${res.status} ${res.body}`] as const;
  })));
  const wc = await tp.workingCopy('granted-site', { 'docs.json': JSON.stringify({ name: 'Granted' }), ...pages('v1') });
  tp.startWorker();

  let v1Files: Record<string, string> = {};
  let v1Served: Record<string, string> = {};
  await t.test('should publish every file straight to the bucket, none through the object PUT route', async (t) => {
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.equal(d.status, 'deployed', d.error ?? 'no error');
    v1Served = await served();
    t.match(v1Served[3], /^200 [^]*Marker v1-page-3/);
    v1Files = await snapshot();
    const siteFiles = Object.keys(v1Files);
    t.ok(siteFiles.length > PAGES, `${siteFiles.length} files published`);
    t.same(written.filter(ours), [], 'the control plane wrote none of the site\'s files');
    const granted = new Set(front.puts);
    t.same(siteFiles.filter((k) => !granted.has(k)), [], 'each came by a presigned PUT');
  });

  await t.test('should leave the live site byte for byte as it was when the bucket refuses a build after its grant uploads', async (t) => {
    await wc.write(pages('v2'));
    const manifest = `state/${project.id}/manifest.json.gz`;
    front.refuse = (key) => key === manifest;
    const before = front.puts.length;
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha, 300_000);
    t.equal(d.status, 'failed');
    t.ok(front.puts.slice(before).some((k) => k === `sites/${project.id}/page-0/index.html`), 'the failed build had replaced a live page');
    t.same(await snapshot(), v1Files, 'the site and the builder state are byte for byte the last deployed ones');
    t.same(await served(), v1Served, 'every page serves what it served before');
    t.equal(await tp.p.cp.m.PublishJournal.countDocuments(), 0, 'the journal is empty');
    front.refuse = undefined;
  });
});
