/**
 * `npm run bench:fleet [-- --real 1,2] [-- --replicas 1,2] [-- --projects 6] [-- --pages 5]`:
 * how the builder fleet scales.
 *
 * 1. Real: for each N of `--real`, N real worker processes against the platform, `--projects`
 *    sites (in 3 organizations) pushed at once, then edited and pushed again (fleet-rounds.ts).
 *    Without `--replicas`: one platform process (in-memory database, local store). With
 *    `--replicas 1,2`: for each R, the database in its own process, an S3-compatible server and
 *    R control-plane processes behind a round-robin balancer (fleet-replicas.ts); each
 *    process's CPU per build is read from /proc.
 * 2. Claim cost with 10 / 100 / 1,000 runnable deployments queued, on the same database.
 * 3. Simulation (bench/fleet-sim.ts) calibrated with the edit round's build times, the control
 *    plane's CPU per build, the database's and the claim's cost: `--sim-projects` (10,000)
 *    projects across `--sim-orgs` (1,000) organizations, skewed activity and bursts, for builders
 *    1 … 256 and replicas 1, 2, 4, 8; fair queuing and FIFO side by side; a saturation run (every
 *    project pushes at once) for the ceiling, and the bound the costs put on it by resource.
 *    Twice: with today's publishing through the control plane, and with builders uploading
 *    straight to storage, where a replica keeps `--direct-share` (0.3) of its CPU per build.
 *
 * With `--replicas`, builders upload to S3 with grants, so what a replica spends per build is the
 * direct-upload cost; today's (every byte through the control plane) is `--cp-s` when given (from a
 * run without `--replicas`), else that cost over `--direct-share`.
 *
 * `--sim-only` skips 1 and 2 and takes the calibration from `--build-s` (seconds per build on a
 * builder), `--cp-s` (a replica's CPU per build), `--db-s` (the database's per build besides the
 * claim), `--claim-ms` and `--claim-per-queued-ms`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from '@folio/control-plane';
import { startPlatform } from '@folio/control-plane/platform.ts';
import { claimCost, type ClaimCost } from './bench/fleet-claims.ts';
import { withReplicas } from './bench/fleet-replicas.ts';
import { pushRounds, type FleetTarget, type Round } from './bench/fleet-rounds.ts';
import { printSimulation } from './bench/fleet-tables.ts';
import type { Calibration } from './bench/fleet-sim.ts';
import { parseArgs } from './cli-args.ts';
import { spawnWorkers } from './spawn-workers.ts';

const { flags } = parseArgs(process.argv.slice(2));
const list = (v: unknown, fallback: string) => String(v ?? fallback).split(',').map(Number).filter((n) => Number.isInteger(n) && n >= 1);
const REPLICAS = flags.replicas === undefined ? [] : list(flags.replicas, '1,2');
const REAL = list(flags.real, REPLICAS.length ? '2' : '1,2');
if (!REAL.length || (flags.replicas !== undefined && !REPLICAS.length)) { console.error('--real, --replicas: expected counts such as 1,2'); process.exit(2); }
const PROJECTS = Number(flags.projects ?? 6);
const PAGES = Number(flags.pages ?? 5);
let DIRECT_SHARE = Number(flags['direct-share'] ?? 0.3);
if (!(DIRECT_SHARE >= 0 && DIRECT_SHARE <= 1)) { console.error('--direct-share: expected a share between 0 and 1, such as 0.3'); process.exit(2); }
const q = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0; };
const f1 = (x: number) => x.toFixed(1);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);

/** One platform process: in-memory database, local store; its CPU is this process's. */
async function withPlatform<T>(body: (target: FleetTarget, internalUrl: string, workerSecret: string) => Promise<T>): Promise<T> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-fleet-'));
  const env = parseEnv({ API_PORT: '0', SITE_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const p = await startPlatform({ env, inMemory: true, port: 0, sitePort: 0, log: () => {} });
  const cpu = () => { const c = process.cpuUsage(); return { replicas: [(c.user + c.system) / 1e6], db: 0 }; };
  try { return await body({ m: p.cp.m, origin: p.internalUrl, cpu }, p.internalUrl, p.workerSecret); } finally { await p.close(); fs.rmSync(dataDir, { recursive: true, force: true }); }
}

/** N workers against the platform at `url` for the two rounds. */
async function withWorkers(n: number, url: string, workerSecret: string, body: () => Promise<Round[]>): Promise<Round[]> {
  const workers = spawnWorkers(n, { controlPlaneUrl: url, workerSecret, quiet: !flags.verbose, extraEnv: { POLL_MS: '100' } });
  try { return await body(); } finally { await workers.stop(); }
}

const calibration: Calibration = {
  buildS: [Number(flags['build-s'] ?? 40)], cpPerBuildS: Number(flags['cp-s'] ?? 1.2), dbPerBuildS: Number(flags['db-s'] ?? 0),
  claimBaseS: Number(flags['claim-ms'] ?? 50) / 1000, claimPerQueuedS: Number(flags['claim-per-queued-ms'] ?? 0.001) / 1000,
};

if (!flags['sim-only']) {
  const edits: Round[] = [];
  const claims: ClaimCost[] = [];
  const sizes = [10, 100, 1000];
  console.log(`\nReal workers: ${PROJECTS} projects of ${PAGES} pages pushed at once (first builds), then edited and pushed again;`
    + (REPLICAS.length ? ' control-plane replicas on one database process and one S3 server, behind a round-robin balancer' : ' one platform process'));
  console.log('| replicas | workers | round | builds | deployments/min | wait p50 / p95 (s) | build p50 / p95 (s) | CPU per build, each replica (s): idle subtracted (raw) | database CPU per build (s): idle subtracted (raw) |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const report = (r: number | string, n: number, rounds: Round[]) => rounds.forEach((x, i) => {
    console.log(`| ${r} | ${n} | ${i ? 'edit' : 'first'} | ${x.builds} | ${f1(x.builds / x.seconds * 60)} | ${f1(q(x.waits, 0.5))} / ${f1(q(x.waits, 0.95))} | ${f1(q(x.durations, 0.5))} / ${f1(q(x.durations, 0.95))} | ${x.replicaCpuPerBuild.map((c) => c.toFixed(2)).join(' + ')} (${x.replicaCpuPerBuildRaw.map((c) => c.toFixed(2)).join(' + ')}) | ${REPLICAS.length ? `${x.dbCpuPerBuild.toFixed(3)} (${x.dbCpuPerBuildRaw.toFixed(3)})` : 'in process'} |`);
    if (i) edits.push(x);
  });
  if (REPLICAS.length) {
    for (const r of REPLICAS) {
      await withReplicas(r, async ({ target, balancerUrl, workerSecret }) => {
        for (const n of REAL) report(r, n, await withWorkers(n, balancerUrl, workerSecret, () => pushRounds(target, { projects: PROJECTS, pages: PAGES, tag: `${r}-${n}` })));
        // The claim cost on the shared database, measured once (with the largest replica count's platform, builders stopped).
        if (r === REPLICAS.at(-1)) for (const s of sizes) claims.push(await claimCost(target.m, s, `r${r}`, () => target.cpu().db));
      });
    }
  } else {
    for (const n of REAL) await withPlatform((target, url, secret) => withWorkers(n, url, secret, () => pushRounds(target, { projects: PROJECTS, pages: PAGES, tag: `${n}` }))).then((rounds) => report('1 (in process)', n, rounds));
    for (const s of sizes) claims.push(await withPlatform((target) => claimCost(target.m, s, 'single', () => 0)));
  }
  console.log(`\nClaim cost on the ${REPLICAS.length ? 'database process, over the wire' : 'embedded database, in process'}`);
  for (const c of claims) console.log(`  ${c.queued} runnable deployments queued: ${(c.seconds * 1000).toFixed(0)} ms per claim${REPLICAS.length ? `, ${(c.dbCpuSeconds * 1000).toFixed(0)} ms of the database's CPU` : ''}`);

  // The database's share of a claim is its CPU when it runs apart, else the claim's whole time.
  const claimS = (c: ClaimCost) => (REPLICAS.length ? c.dbCpuSeconds : c.seconds);
  const [first, last] = [claims[0], claims.at(-1)!];
  calibration.claimPerQueuedS = Math.max(0, (claimS(last) - claimS(first)) / Math.max(1, last.queued - first.queued));
  calibration.claimBaseS = Math.max(0.001, claimS(first) - calibration.claimPerQueuedS * first.queued);
  const measured = Math.max(...edits.map((e) => sum(e.replicaCpuPerBuild)));
  if (!REPLICAS.length) calibration.cpPerBuildS = measured;
  else if (flags['cp-s'] !== undefined) {
    // Builders upload to S3 with grants here: what a replica spent is the direct-upload cost, and
    // --cp-s (a single-process run's, where every byte goes through the control plane) today's.
    DIRECT_SHARE = Math.min(1, measured / calibration.cpPerBuildS);
  } else calibration.cpPerBuildS = measured / DIRECT_SHARE;
  console.log(REPLICAS.length
    ? `\nA replica's CPU per build with builders uploading to S3: ${measured.toFixed(3)} s; through the control plane (${flags['cp-s'] !== undefined ? '--cp-s' : `assumed: that over --direct-share ${DIRECT_SHARE}`}): ${calibration.cpPerBuildS.toFixed(3)} s`
    : `\nThe control plane's CPU per build, every byte through it: ${measured.toFixed(3)} s`);
  calibration.dbPerBuildS = Math.max(0, Math.max(...edits.map((e) => e.dbCpuPerBuild)) - calibration.claimBaseS);
  // A build holds its builder for its whole duration, of which the control plane's share is modelled apart.
  calibration.buildS = edits.flatMap((e) => e.durations).map((s) => Math.max(0.1, s - calibration.cpPerBuildS));
}

printSimulation(calibration, {
  builders: list(flags['sim-builders'], '1,2,4,8,16,32,64,128,256'),
  replicas: list(flags['sim-replicas'], '1,2,4,8'),
  directShare: DIRECT_SHARE,
  balance: flags.balance === 'least-loaded' ? 'least-loaded' : 'round-robin',
  workload: { orgs: Number(flags['sim-orgs'] ?? 1000), projects: Number(flags['sim-projects'] ?? 10_000), hours: 1, pushesPerHour: Number(flags['pushes-per-hour'] ?? 20_000), burstEveryS: 300, seed: 1 },
});
process.exit(0);
