/**
 * The pieces of a platform run as several control-plane processes on one machine, shared by
 * `npm run bench:fleet -- --replicas N` and `npm run test:replicas`: a child process running one
 * of this repository's TypeScript entries with its output kept line by line, the embedded
 * database in a process of its own (`npm run db:serve`), control-plane replicas (`npm start`
 * without builders) and a TCP load balancer in front of them, as a Service or an ingress would be.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Proc {
  child: ChildProcess;
  /** Every line printed so far, stdout and stderr together. */
  lines: string[];
  /** The first line matching `re`, waiting for it; throws if the process ends first. */
  line(re: RegExp): Promise<RegExpMatchArray>;
}

/** A child running a TypeScript entry of this repository (path from the root) through tsx. */
export function runEntry(entry: string, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  const take = (chunk: Buffer) => { lines.push(...chunk.toString().split('\n').filter(Boolean)); waiters.splice(0).forEach((w) => w()); };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  child.on('exit', () => waiters.splice(0).forEach((w) => w()));
  const line = async (re: RegExp): Promise<RegExpMatchArray> => {
    for (;;) {
      for (const l of lines) { const m = l.match(re); if (m) return m; }
      if (!alive({ child })) throw new Error(`${entry} ended: ${lines.slice(-20).join('\n')}`);
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return { child, lines, line };
}

export const alive = (p: Pick<Proc, 'child'>): boolean => p.child.exitCode === null && p.child.signalCode === null;

/** Seconds of CPU (user + system) a live process on Linux has used, from /proc; 0 elsewhere. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime), counted from the state field as 3, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The embedded database in its own process (`npm run db:serve`), durable in `<dataDir>/db`, on a free port. */
export async function startDatabaseProcess(dataDir: string): Promise<{ proc: Proc; uri: string }> {
  const proc = runEntry('scripts/src/db-server.ts', { DATA_DIR: dataDir, DB_PORT: '0' });
  return { proc, uri: (await proc.line(/^Database: (\S+)/))[1]! };
}

export interface S3Settings { bucket: string; endpoint: string }

export interface ReplicaOptions {
  mongodbUri: string;
  /** The data folder every replica shares (managed Git repositories). */
  dataDir: string;
  workerSecret: string;
  /** Where builders and Git fetches reach the API: the load balancer. */
  internalApiUrl: string;
  /** An S3-compatible server whose access key and secret are both `S3RVER` (s3rver's). */
  s3: S3Settings;
  /** More variables, e.g. `BUILD_LEASE_MS` or `OUTBOUND_PRIVATE_HOSTS`. */
  env?: Record<string, string>;
}

export interface Replica { proc: Proc; api: string; apiPort: number; sites: string }

/** One control-plane process (`npm start` with no builders of its own) on free ports, started and answering. */
export async function startReplica(o: ReplicaOptions): Promise<Replica> {
  const proc = runEntry('scripts/src/start.ts', {
    MONGODB_URI: o.mongodbUri, DATA_DIR: o.dataDir, API_PORT: '0', SITE_PORT: '0', BUILDER_WORKERS: '0',
    WORKER_SECRET: o.workerSecret, INTERNAL_API_URL: o.internalApiUrl, PUSH_WAIT_MS: '0', LOG_LEVEL: 'error',
    S3_BUCKET: o.s3.bucket, S3_ENDPOINT: o.s3.endpoint, S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER',
    SITES_DOMAIN: 'localhost', ...o.env,
  });
  try {
    const api = (await proc.line(/^Folio API:\s+(http:\/\/\S+)\/v1/))[1]!;
    const sites = (await proc.line(/site server on (http:\/\/[^)\s]+)\)/))[1]!;
    return { proc, api, apiPort: Number(new URL(api).port), sites };
  } catch (err) {
    proc.child.kill('SIGKILL');
    throw err;
  }
}

export interface Balancer { url: string; close(): Promise<void> }

/** A TCP load balancer, round robin: each connection goes to the next live backend, the one after tried when one refuses. */
export async function tcpBalancer(ports: () => number[]): Promise<Balancer> {
  let turn = 0;
  const server = net.createServer((client) => {
    client.pause();
    const candidates = ports();
    const attempt = (i: number) => {
      if (i >= candidates.length) { client.destroy(); return; }
      const upstream = net.connect(candidates[(turn + i) % candidates.length]!, '127.0.0.1');
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        client.pipe(upstream).pipe(client);
        client.resume();
      });
      upstream.on('error', () => { if (connected) client.destroy(); else attempt(i + 1); });
      client.on('error', () => upstream.destroy());
    };
    turn++;
    attempt(0);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => { server.close(() => r()); }) };
}
