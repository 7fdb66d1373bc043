import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createLocalDirStore } from '@folio/builder';
import { claimJob } from '../../src/deploy/claim-job.ts';
import { preserveBeforeWrite, restoreAttempt, revokeAndRestore, sweepPublishJournal, trackWrite, usePublishRollback } from '../../src/deploy/publish-rollback.ts';
import { completeJob, enqueueDeployment, hashToken, MAX_ATTEMPTS } from '../../src/deploy/queue.ts';
import { startTestApi } from '../helpers/api.ts';

t.test('publish rollback', async (t) => {
  const api = await startTestApi();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-publish-rollback-'));
  t.teardown(async () => { await api.close(); fs.rmSync(root, { recursive: true, force: true }); });
  const m = api.cp.m;
  const store = createLocalDirStore(root);
  usePublishRollback(m, store);
  const base = new Date(Date.UTC(2026, 10, 29, 8));
  const at = (ms: number) => new Date(base.getTime() + ms);
  const text = async (key: string) => { const b = await store.get(key); return b && Buffer.from(b).toString('utf8'); };
  let n = 0;
  /** A project with `live` published, and a claimed job of it (the other deployments dropped unless kept). */
  const claimed = async (live: Record<string, string>, others: 'keep' | 'drop' = 'drop', now = at(0)) => {
    // Other subtests' jobs would be claimed first.
    if (others === 'drop') await m.Deployment.deleteMany({});
    const org = await api.org('free');
    const project = await m.Project.create({ org_id: org.id, name: 'P', slug: `rollback-${process.pid}-${++n}` });
    const id = project._id as string;
    for (const [k, v] of Object.entries(live)) await store.put(`sites/${id}/${k}`, Buffer.from(v));
    await enqueueDeployment(m, id, { trigger: 'push', commitSha: 'a'.repeat(40) }, now);
    const job = (await claimJob(m, 'w', now, 1000))!;
    return { id, job, proof: { deploymentId: job.deployment._id, fencing: job.deployment.fencing, token: job.token } };
  };
  /** What a build's PUT does through the object routes. */
  const write = async (d: { _id: string; fencing: number }, key: string, value: string) => {
    await preserveBeforeWrite(m, d, key);
    await store.put(key, Buffer.from(value));
  };

  await t.test('should journal a key once under concurrent first writes, keeping the object from before them', async (t) => {
    const { id, job, proof } = await claimed({ 'index.html': 'v1' });
    const key = `sites/${id}/index.html`;
    await Promise.all(Array.from({ length: 8 }, (_, i) => write(job.deployment, key, `v2-${i}`)));
    t.equal(await m.PublishJournal.countDocuments({ deployment_id: job.deployment._id }), 1);
    t.equal((await store.list(`rollback/${job.deployment._id}/`)).length, 1, 'the losers dropped their copies');
    await completeJob(m, proof, { status: 'failed', error: 'output_too_large', retryable: false }, at(10));
    t.equal(await text(key), 'v1');
    t.same(await store.list('rollback/'), []);
    t.equal(await m.PublishJournal.countDocuments(), 0);
  });

  await t.test('should put back replaced and deleted keys and delete new ones when a retryable failure is queued again', async (t) => {
    const { id, job, proof } = await claimed({ 'a.html': 'a1', 'b.html': 'b1' });
    await write(job.deployment, `sites/${id}/a.html`, 'a2');
    await write(job.deployment, `sites/${id}/new.html`, 'new');
    await write(job.deployment, `state/${id}/manifest.json.gz`, 'manifest2');
    await preserveBeforeWrite(m, job.deployment, `sites/${id}/b.html`);
    await store.delete([`sites/${id}/b.html`]);
    const d = await completeJob(m, proof, { status: 'failed', error: 'storage', retryable: true }, at(10));
    t.equal(d.status, 'queued');
    t.same(await store.list(`sites/${id}/`), [`sites/${id}/a.html`, `sites/${id}/b.html`]);
    t.same([await text(`sites/${id}/a.html`), await text(`sites/${id}/b.html`)], ['a1', 'b1']);
    t.same(await store.list(`state/${id}/`), [], 'the builder state is as it was too');
    t.equal(await m.PublishJournal.countDocuments(), 0);
  });

  await t.test('should undo a poison job\'s writes before it reads failed', async (t) => {
    const { id, job } = await claimed({ 'index.html': 'v1' });
    await write(job.deployment, `sites/${id}/index.html`, 'v2');
    // Its builders died on it every time: the lease ran out after the last attempt.
    await m.Deployment.updateOne({ _id: job.deployment._id }, { $set: { attempts: MAX_ATTEMPTS } });
    t.equal(await claimJob(m, 'w2', at(60_000), 1000), undefined);
    const d = (await m.Deployment.findById(job.deployment._id).lean())!;
    t.equal(d.status, 'failed');
    t.equal(await text(`sites/${id}/index.html`), 'v1');
    t.equal(await m.PublishJournal.countDocuments(), 0);
  });

  await t.test('should undo a dead builder\'s writes when its job is taken over, and shut the old attempt out', async (t) => {
    const { id, job } = await claimed({ 'index.html': 'v1' });
    await write(job.deployment, `sites/${id}/index.html`, 'v2');
    const again = (await claimJob(m, 'w2', at(60_000), 1000))!;
    t.equal(again.deployment.fencing, job.deployment.fencing + 1);
    const lease = (await m.Deployment.findById(job.deployment._id).lean())!.lease_expires_at!;
    t.ok(lease.getTime() >= at(61_000).getTime() && lease.getTime() < at(61_000 + 60_000).getTime(), 'the new lease runs from the end of the restore');
    t.equal(await text(`sites/${id}/index.html`), 'v1');
    t.equal(await m.PublishJournal.countDocuments(), 0);
    // The new attempt journals its own writes.
    await write(again.deployment, `sites/${id}/index.html`, 'v3');
    t.same((await m.PublishJournal.find({ deployment_id: job.deployment._id }).lean()).map((e) => [e.fencing, e.had_previous]), [[again.deployment.fencing, true]]);
    await restoreAttempt(m, job.deployment._id);
    t.equal(await text(`sites/${id}/index.html`), 'v1');
  });

  await t.test('should wait for a write in flight before restoring, and refuse writes once revoked', async (t) => {
    const { id, job, proof } = await claimed({ 'index.html': 'v1' });
    const done = trackWrite(job.deployment._id);
    const order: string[] = [];
    const restoring = revokeAndRestore(m, job.deployment, { _id: job.deployment._id, fencing: job.deployment.fencing, status: 'building', token_hash: hashToken(proof.token) }, at(5)).then(() => order.push('restored'));
    // The write passed its lease check before the revocation: it lands, and is undone after.
    await new Promise((r) => setImmediate(r));
    await write(job.deployment, `sites/${id}/index.html`, 'late');
    order.push('written');
    done();
    await restoring;
    t.same(order, ['written', 'restored']);
    t.equal(await text(`sites/${id}/index.html`), 'v1');
    t.equal((await m.Deployment.findById(job.deployment._id).lean())!.token_hash, null, 'the build token is revoked');
    t.equal(await restoreAttempt(m, job.deployment._id), 0, 'restoring again changes nothing');
  });

  await t.test('should refuse a write whose object cannot be preserved, writing nothing', async (t) => {
    const { id, job } = await claimed({ 'index.html': 'v1' });
    usePublishRollback(m, { ...store, copy: async () => { throw new Error('disk gone'); } });
    t.teardown(() => usePublishRollback(m, store));
    await t.rejects(preserveBeforeWrite(m, job.deployment, `sites/${id}/index.html`), {
      status: 503, code: 'store_unavailable', message: `Could not preserve sites/${id}/index.html before replacing it; try again`,
    });
    t.equal(await m.PublishJournal.countDocuments({ deployment_id: job.deployment._id }), 0);
  });

  await t.test('should drop a deployed attempt\'s copies in the background, and sweep old leftovers of ended deployments only', async (t) => {
    const { id, job, proof } = await claimed({ 'index.html': 'v1' });
    await write(job.deployment, `sites/${id}/index.html`, 'v2');
    await completeJob(m, proof, { status: 'deployed', pages_total: 1, pages_success: 1, pages_failed: 0 }, at(10));
    t.equal(await text(`sites/${id}/index.html`), 'v2');
    for (let i = 0; i < 200 && await m.PublishJournal.countDocuments(); i++) await new Promise((r) => setTimeout(r, 25));
    t.equal(await m.PublishJournal.countDocuments(), 0);
    t.same(await store.list('rollback/'), []);

    // Leftovers: a deployed deployment's (its discard never ran) and a building one's.
    const building = await claimed({ 'x.html': 'x1' }, 'keep');
    await write(building.job.deployment, `sites/${building.id}/x.html`, 'x2');
    await m.PublishJournal.create({ deployment_id: job.deployment._id, fencing: 1, key: `sites/${id}/index.html`, had_previous: true, copy_key: `rollback/${job.deployment._id}/k/sites/${id}/index.html`, created_at: at(0) });
    await store.put(`rollback/${job.deployment._id}/k/sites/${id}/index.html`, Buffer.from('v1'));
    await m.PublishJournal.updateMany({}, { $set: { created_at: at(0) } });
    t.equal(await sweepPublishJournal(m, at(60_000)), 0, 'nothing is a day old yet');
    t.equal(await sweepPublishJournal(m, at(25 * 3600_000)), 1);
    t.same((await m.PublishJournal.find().lean()).map((e) => e.deployment_id), [building.job.deployment._id], 'a building deployment\'s entries are its claim\'s to restore');
    t.same((await store.list('rollback/')).map((k) => k.split('/')[1]), [building.job.deployment._id]);
    t.equal(await text(`sites/${id}/index.html`), 'v2', 'a deployed deployment is never rolled back');
  });
});
