/**
 * The platform as several processes for `npm run bench:fleet -- --replicas N`: the embedded
 * database in its own process (`npm run db:serve`), an S3-compatible server, N control-plane
 * replicas sharing both and one data folder, and a round-robin TCP balancer that builders and
 * pushes go through, as `npm run test:replicas` runs them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectDatabase } from '@folio/control-plane/db/connect.ts';
import { models } from '@folio/control-plane/db/models/index.ts';
import { startS3Server } from '../../../builder/test/helpers/s3-server.ts';
import { alive, cpuSeconds, startDatabaseProcess, startReplica, tcpBalancer, type Proc, type Replica } from './replica-processes.ts';
import type { FleetTarget } from './fleet-rounds.ts';

const WORKER_SECRET = 'bench-fleet-worker-secret-0123456789';

export interface ReplicaPlatform { target: FleetTarget; balancerUrl: string; workerSecret: string; dbPid: number }

/** Runs `body` against `n` replicas started for it, and stops everything afterwards. */
export async function withReplicas<T>(n: number, body: (p: ReplicaPlatform) => Promise<T>): Promise<T> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-replicas-'));
  const procs: Proc[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  try {
    const db = await startDatabaseProcess(path.join(work, 'db-data'));
    procs.push(db.proc);
    const s3 = await startS3Server('folio-bench-fleet');
    closers.push(() => s3.close());
    const replicas: Replica[] = [];
    const lb = await tcpBalancer(() => replicas.filter((r) => alive(r.proc)).map((r) => r.apiPort));
    closers.push(() => lb.close());
    for (let i = 0; i < n; i++) {
      const replica = await startReplica({ mongodbUri: db.uri, dataDir: path.join(work, 'cp-data'), workerSecret: WORKER_SECRET, internalApiUrl: lb.url, s3 });
      procs.push(replica.proc);
      replicas.push(replica);
    }
    const conn = await connectDatabase({ mongodbUri: db.uri });
    closers.push(() => conn.close());
    const target: FleetTarget = {
      m: models(conn.connection),
      origin: lb.url,
      cpu: () => ({ replicas: replicas.map((r) => cpuSeconds(r.proc.child.pid)), db: cpuSeconds(db.proc.child.pid) }),
    };
    return await body({ target, balancerUrl: lb.url, workerSecret: WORKER_SECRET, dbPid: db.proc.child.pid! });
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {});
    for (const p of procs.reverse()) if (alive(p)) { p.child.kill('SIGTERM'); await new Promise((r) => p.child.once('exit', r)); }
    fs.rmSync(work, { recursive: true, force: true });
  }
}
