/**
 * `npm run bench:fleet [-- --real 1,2] [-- --projects 6] [-- --pages 5]`: how the
 * builder fleet scales.
 *
 * 1. Real: the platform (in-memory database, local store) with N real worker processes for each
 *    N of `--real`; `--projects` sites (in 3 organizations) pushed at once (first builds), then
 *    each edited and pushed again at once (the common case: an incremental build, usually in a
 *    build process not yet warm for that project). Prints throughput, waits and build times,
 *    and the control plane's CPU per build.
 * 2. Claim cost on the embedded database, with 10 / 100 / 300 runnable deployments queued.
 * 3. Simulation (bench/fleet-sim.ts) calibrated with the incremental build times, the control
 *    plane's CPU per build and the claim cost measured above: 1,000 projects across 100
 *    organizations, skewed activity and bursts, for N = 1 … 64, fair queuing and FIFO side by side,
 *    plus a saturation run (every project pushes at once) for the throughput ceiling.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiKey, createOrganization, parseEnv } from '@folio/control-plane';
import { claimJob } from '@folio/control-plane/deploy/claim-job.ts';
import { enqueueDeployment } from '@folio/control-plane/deploy/queue.ts';
import { runGit } from '@folio/control-plane/git/git-cli.ts';
import { startPlatform } from '@folio/control-plane/platform.ts';
import { makeWorkload, simulate, type Calibration, type SimResult } from './bench/fleet-sim.ts';
import { parseArgs } from './cli-args.ts';
import { spawnWorkers } from './spawn-workers.ts';

const { flags } = parseArgs(process.argv.slice(2));
const REAL = String(flags.real ?? '1,2').split(',').map(Number).filter((n) => n >= 1);
if (!REAL.length) { console.error('--real: expected worker counts such as 1,2'); process.exit(2); }
const PROJECTS = Number(flags.projects ?? 6);
const PAGES = Number(flags.pages ?? 5);
const GIT_ENV = { GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' };
const q = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0; };
const f1 = (x: number) => x.toFixed(1);

console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);

async function withPlatform<T>(body: (p: Awaited<ReturnType<typeof startPlatform>>) => Promise<T>): Promise<T> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-fleet-'));
  const env = parseEnv({ API_PORT: '0', SITE_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const p = await startPlatform({ env, inMemory: true, port: 0, sitePort: 0, log: () => {} });
  try { return await body(p); } finally { await p.close(); fs.rmSync(dataDir, { recursive: true, force: true }); }
}

interface Round { builds: number; seconds: number; waits: number[]; durations: number[]; cpCpuPerBuild: number }

/** N real workers; all projects pushed at once, twice (first build, then an edit). */
async function realRun(n: number): Promise<Round[]> {
  return withPlatform(async (p) => {
    const workers = spawnWorkers(n, { controlPlaneUrl: p.internalUrl, workerSecret: p.workerSecret, quiet: !flags.verbose, extraEnv: { POLL_MS: '100' } });
    try {
      const projects: { id: string; dir: string; remote: string }[] = [];
      for (let i = 0; i < PROJECTS; i++) {
        const org = await createOrganization(p.cp.m, `fleet-org-${n}-${i % 3}-${i}`, 'enterprise');
        const { key } = await createApiKey(p.cp.m, { orgId: org._id });
        const res = await fetch(`${p.cp.apiUrl}/projects`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Fleet ${i}`, slug: `fleet-${n}-${i}` }) });
        const { id } = await res.json() as { id: string };
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-fleet-wc-'));
        await runGit(['init', '-q', '-b', 'main'], { cwd: dir });
        fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({ name: `Fleet ${i}` }));
        fs.mkdirSync(path.join(dir, 'docs'));
        for (let k = 0; k < PAGES; k++) fs.writeFileSync(path.join(dir, 'docs', `page-${k}.mdx`), `---\ntitle: Page ${k}\n---\n\nText of page ${k}.\n\n\`\`\`ts\nexport const k = ${k};\n\`\`\`\n`);
        projects.push({ id, dir, remote: `${p.internalUrl.replace('http://', `http://git:${key}@`)}/git/fleet-${n}-${i}.git` });
      }
      const rounds: Round[] = [];
      for (let round = 0; round < 2; round++) {
        for (const pr of projects) {
          if (round) fs.appendFileSync(path.join(pr.dir, 'docs', 'page-0.mdx'), `\nEdited in round ${round}.\n`);
          await runGit(['add', '-A'], { cwd: pr.dir });
          await runGit(['commit', '-q', '-m', `round ${round}`], { cwd: pr.dir, env: GIT_ENV });
        }
        const cpu0 = process.cpuUsage();
        const t0 = Date.now();
        await Promise.all(projects.map((pr) => runGit(['push', '-q', pr.remote, 'main'], { cwd: pr.dir })));
        const ids = projects.map((pr) => pr.id);
        for (;;) {
          const open = await p.cp.m.Deployment.countDocuments({ project_id: { $in: ids }, finished_at: null });
          if (!open) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        const seconds = (Date.now() - t0) / 1000;
        const cpu = process.cpuUsage(cpu0);
        const rows = await p.cp.m.Deployment.find({ project_id: { $in: ids }, started_at: { $gte: new Date(t0) } }).lean();
        const built = rows.filter((d) => d.claimed_at);
        const failed = rows.filter((d) => d.status !== 'deployed');
        if (failed.length) console.log(`  note: ${failed.length} deployment(s) failed: ${failed[0].error}`);
        rounds.push({
          builds: built.length, seconds,
          waits: built.map((d) => (d.claimed_at!.getTime() - d.started_at!.getTime()) / 1000),
          durations: built.map((d) => (d.finished_at!.getTime() - d.claimed_at!.getTime()) / 1000),
          // The platform runs in this process: its CPU time is the control plane's (workers are other processes).
          cpCpuPerBuild: (cpu.user + cpu.system) / 1e6 / Math.max(1, built.length),
        });
      }
      for (const pr of projects) fs.rmSync(pr.dir, { recursive: true, force: true });
      return rounds;
    } finally {
      await workers.stop();
    }
  });
}

/** Seconds one claim takes with `queued` runnable deployments (each of its own project and organization). */
async function claimCost(queued: number): Promise<number> {
  return withPlatform(async (p) => {
    const m = p.cp.m;
    const now = new Date();
    for (let i = 0; i < queued; i++) {
      const org = await createOrganization(m, `claim-org-${queued}-${i}`, 'free');
      const [project] = await m.Project.insertMany([{ org_id: org._id, name: 'C', slug: `claim-${queued}-${i}` }]);
      await enqueueDeployment(m, project._id as string, { trigger: 'push', commitSha: 'a'.repeat(40) }, now);
    }
    const t0 = performance.now();
    const CLAIMS = 5;
    for (let i = 0; i < CLAIMS; i++) await claimJob(m, `w${i}`, new Date(), 60_000);
    return (performance.now() - t0) / 1000 / CLAIMS;
  });
}

const calibration: Calibration = { buildS: [], cpPerBuildS: 0, claimBaseS: 0, claimPerQueuedS: 0 };
{
  console.log(`\nReal workers: ${PROJECTS} projects of ${PAGES} pages pushed at once (first builds), then edited and pushed again`);
  console.log('| workers | round | builds | deployments/min | wait p50 / p95 (s) | build p50 / p95 (s) | control-plane CPU per build (s) |');
  console.log('|---|---|---|---|---|---|---|');
  for (const n of REAL) {
    const rounds = await realRun(n);
    rounds.forEach((r, i) => {
      console.log(`| ${n} | ${i ? 'edit' : 'first'} | ${r.builds} | ${f1(r.builds / r.seconds * 60)} | ${f1(q(r.waits, 0.5))} / ${f1(q(r.waits, 0.95))} | ${f1(q(r.durations, 0.5))} / ${f1(q(r.durations, 0.95))} | ${r.cpCpuPerBuild.toFixed(2)} |`);
    });
    calibration.buildS.push(...rounds[1].durations);
    calibration.cpPerBuildS = Math.max(calibration.cpPerBuildS, rounds[1].cpCpuPerBuild);
  }
}
// A build holds its builder for its whole duration, of which the control plane's share is modelled apart.
calibration.buildS = calibration.buildS.map((s) => Math.max(0.1, s - calibration.cpPerBuildS));

console.log('\nClaim cost on the embedded database');
const sizes = [10, 100, 300];
const costs: number[] = [];
for (const s of sizes) {
  costs.push(await claimCost(s));
  console.log(`  ${s} runnable deployments queued: ${(costs.at(-1)! * 1000).toFixed(0)} ms per claim`);
}
calibration.claimPerQueuedS = Math.max(0, (costs[2] - costs[0]) / (sizes[2] - sizes[0]));
calibration.claimBaseS = Math.max(0.001, costs[0] - calibration.claimPerQueuedS * sizes[0]);

const workload = { orgs: 100, projects: 1000, hours: 1, pushesPerHour: 3000, burstEveryS: 300, seed: 1 };
const load = makeWorkload(workload);
const saturation = makeWorkload({ ...workload, hours: 0.0001, pushesPerHour: 1, burstEveryS: 1e9 });
saturation.pushes = load.orgOf.map((_, project) => ({ at: 0, project }));
console.log(`\nSimulation: ${workload.projects} projects, ${workload.orgs} organizations (Zipf s=1.1), ${load.pushes.length} pushes in ${workload.hours} h`
  + ` (Poisson ${workload.pushesPerHour}/h plus one organization pushing all its projects every ${workload.burstEveryS} s);`
  + ` build time bootstrap of ${calibration.buildS.length} measured builds, control plane ${calibration.cpPerBuildS.toFixed(2)} s per build,`
  + ` claim ${(calibration.claimBaseS * 1000).toFixed(1)} ms + ${(calibration.claimPerQueuedS * 1000).toFixed(2)} ms per queued deployment`);
console.log('| builders | deployments/min (hour) | wait p50 / p95 / p99 (s), fair | busiest org p95 / median org p95 (s), fair | Jain index fair / FIFO | control plane busy | deployments/min (saturation) |');
console.log('|---|---|---|---|---|---|---|');
for (const n of [1, 2, 4, 8, 16, 32, 64]) {
  const fair: SimResult = simulate(n, 'fair', load, calibration, 7);
  const fifo = simulate(n, 'fifo', load, calibration, 7);
  const sat = simulate(n, 'fair', saturation, calibration, 7);
  console.log(`| ${n} | ${f1(fair.throughputPerMin)} | ${f1(fair.waitP50)} / ${f1(fair.waitP95)} / ${f1(fair.waitP99)} | ${f1(fair.busiestOrgP95)} / ${f1(fair.medianOrgP95)} | ${fair.jain.toFixed(2)} / ${fifo.jain.toFixed(2)} | ${(fair.cpBusy * 100).toFixed(0)}% | ${f1(sat.throughputPerMin)} |`);
}
process.exit(0);
