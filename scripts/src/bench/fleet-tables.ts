/**
 * The simulation's part of `npm run bench:fleet`: one table per replica count, for publishing
 * through the control plane (today) and for builders uploading straight to storage, each row a
 * builder count with its throughput, waits, fairness, each server's busy share and the bound.
 */
import { bound, makeWorkload, saturated, simulate, type Bound, type Calibration, type Topology, type Workload } from './fleet-sim.ts';

export interface SimulationPlan {
  builders: number[];
  replicas: number[];
  /** Share of a replica's CPU per build left once builders upload straight to storage. */
  directShare: number;
  balance: Topology['balance'];
  workload: Workload;
}

const f1 = (x: number) => x.toFixed(1);
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

export function printSimulation(cal: Calibration, plan: SimulationPlan): void {
  const w = plan.workload;
  const load = makeWorkload(w);
  const all = saturated(load);
  const mean = cal.buildS.reduce((a, b) => a + b, 0) / cal.buildS.length;
  console.log(`\nSimulation: ${w.projects} projects, ${w.orgs} organizations (Zipf s=1.1), ${load.pushes.length} pushes in ${w.hours} h`
    + ` (Poisson ${w.pushesPerHour}/h plus one organization pushing all its projects every ${w.burstEveryS} s); balancer: ${plan.balance};`
    + ` builds of ${f1(mean)} s on average on a builder (${cal.buildS.length} measured), a replica's CPU ${cal.cpPerBuildS.toFixed(2)} s per build,`
    + ` the database ${(cal.dbPerBuildS * 1000).toFixed(0)} ms per build plus ${(cal.claimBaseS * 1000).toFixed(1)} ms + ${(cal.claimPerQueuedS * 1000).toFixed(4)} ms per queued deployment per claim.`
    + ' Saturation: every project pushed at once, ceiling over the first builds.');
  const cpS = (share: number) => `${(cal.cpPerBuildS * share).toFixed(3)} s of a replica's CPU per build`;
  const modes = [
    { name: `Every byte published through a replica (${cpS(1)})`, cpShare: 1 },
    { name: `Builders uploading straight to storage (${cpS(plan.directShare)}: ${pct(plan.directShare)} of the above)`, cpShare: plan.directShare },
  ];
  for (const mode of modes) {
    console.log(`\n### ${mode.name}`);
    for (const replicas of plan.replicas) {
      console.log(`\n${replicas} replica${replicas > 1 ? 's' : ''}:\n`);
      console.log('| builders | deployments/min (hour) | wait p50 / p95 / p99 (s), fair | busiest / median org p95 (s), fair | Jain fair / FIFO | replicas busy | database busy | deployments/min, saturated | bound (deployments/min, by) |');
      console.log('|---|---|---|---|---|---|---|---|---|');
      let last: Bound | undefined;
      for (const builders of plan.builders) {
        const topo: Topology = { builders, replicas, balance: plan.balance, cpShare: mode.cpShare };
        const fair = simulate(topo, 'fair', load, cal, 7);
        const fifo = simulate(topo, 'fifo', load, cal, 7);
        const sat = simulate(topo, 'fair', all, cal, 7, Math.max(1000, builders * 10));
        const b = bound(topo, cal, all.pushes.length);
        last = b;
        const busy = fair.replicaBusy.length > 4 ? `${pct(Math.min(...fair.replicaBusy))}-${pct(Math.max(...fair.replicaBusy))}` : fair.replicaBusy.map(pct).join(' / ');
        console.log(`| ${builders} | ${f1(fair.throughputPerMin)} | ${f1(fair.waitP50)} / ${f1(fair.waitP95)} / ${f1(fair.waitP99)} | ${f1(fair.busiestOrgP95)} / ${f1(fair.medianOrgP95)} | ${fair.jain.toFixed(2)} / ${fifo.jain.toFixed(2)} | ${busy} | ${pct(fair.dbBusy)} | ${f1(sat.throughputPerMin)} | ${f1(b.perMin)}, ${b.by} |`);
      }
      if (last) console.log(`\nCeilings at ${plan.builders.at(-1)} builders, deployments/min: builders ${f1(last.builders)}, ${replicas} replica${replicas > 1 ? 's' : ''} ${f1(last.replicas)}, database ${f1(last.database)}; the bound is the ${last.by}.`);
    }
  }
}
