/**
 * `npm run bench:claim [-- --sizes 10,300,10000] [-- --orgs 50] [-- --claims 40]`: what one claim
 * costs with that many runnable deployments queued across `--orgs` organizations (each in its own
 * project), on the embedded database in memory (or `MONGODB_URI`). Prints, per queue length, the
 * median and p95 wall time of a claim and the database operations each one sends (counted with
 * mongoose's debug hook), with the load average. The queue is written directly (one insert of all
 * the deployments, one queue head per organization), as enqueues would have left it; each claimed
 * job is queued again after its claim (not measured), so the queue keeps its length.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { connectDatabase } from '@folio/control-plane/db/connect.ts';
import { models } from '@folio/control-plane/db/models/index.ts';
import { claimJob } from '@folio/control-plane/deploy/claim-job.ts';
import { markQueued } from '@folio/control-plane/deploy/queue-heads.ts';
import { parseArgs } from './cli-args.ts';

const { flags } = parseArgs(process.argv.slice(2));
const SIZES = String(flags.sizes ?? '10,300,10000').split(',').map(Number).filter((n) => n >= 1);
const ORGS = Number(flags.orgs ?? 50);
const CLAIMS = Number(flags.claims ?? 40);
if (!SIZES.length || !(ORGS >= 1) || !(CLAIMS >= 1)) { console.error('--sizes: queue lengths such as 10,300,10000; --orgs and --claims: positive numbers'); process.exit(2); }
const q = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0; };

console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
console.log(`| runnable deployments queued (${ORGS} organizations) | claim median (ms) | claim p95 (ms) | database operations per claim |`);
console.log('|---|---|---|---|');

for (const size of SIZES) {
  const db = await connectDatabase({ mongodbUri: process.env.MONGODB_URI, dbName: `bench_claim_${size}_${process.pid}` });
  try {
    const m = models(db.connection);
    const start = new Date(Date.now() - 60_000);
    const orgs = await m.Organization.insertMany(Array.from({ length: Math.min(ORGS, size) }, (_, i) => ({ handle: `claim-${size}-${i}`, name: `Claim ${i}`, plan: 'free' })));
    const orgIds = orgs.map((o) => String(o._id));
    const projects = await m.Project.insertMany(Array.from({ length: size }, (_, i) => ({ _id: randomUUID(), org_id: orgIds[i % orgIds.length], name: 'C', slug: `claim-${size}-${i}` })), { lean: true });
    await m.Deployment.insertMany(projects.map((p, i) => ({
      _id: randomUUID(), project_id: String(p._id), status: 'queued', trigger: 'push', commit_sha: 'a'.repeat(40), branch: 'main',
      started_at: new Date(start.getTime() + i), next_attempt_at: start, fencing: 0, attempts: 0, queue_org: p.org_id,
    })), { lean: true });
    await m.ClaimHead.insertMany(orgIds.map((id, i) => ({ _id: id, finish: 0, seq: 1, ready_at: start, since: new Date(start.getTime() + i) })));
    let ops = 0;
    let counting = false;
    db.connection.set('debug', () => { if (counting) ops++; });
    const times: number[] = [];
    for (let i = 0; i < CLAIMS; i++) {
      counting = true;
      const t0 = performance.now();
      const job = await claimJob(m, `w${i}`, new Date(), 60_000);
      times.push(performance.now() - t0);
      counting = false;
      if (!job) throw new Error(`claim ${i} found nothing with ${size} queued`);
      // Queued again as a new push would (the queue keeps its length): not measured.
      await m.Deployment.updateOne({ _id: job.deployment._id }, { $set: { status: 'queued', fencing: 0, attempts: 0, lease_expires_at: null, started_at: new Date() } });
      await markQueued(m, job.deployment.queue_org, start, new Date());
    }
    db.connection.set('debug', false);
    console.log(`| ${size} | ${q(times, 0.5).toFixed(1)} | ${q(times, 0.95).toFixed(1)} | ${(ops / CLAIMS).toFixed(1)} |`);
  } finally {
    await db.connection.dropDatabase().catch(() => {});
    await db.close();
  }
}
