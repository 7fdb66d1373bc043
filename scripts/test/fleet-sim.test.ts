import t from 'tap';
import { bound, makeWorkload, saturated, simulate, type Calibration, type Topology } from '../src/bench/fleet-sim.ts';

// Round figures of the kind bench:fleet measures: 2 s builds, 0.5 s of a replica per build, 30 ms
// of the database per build and 6 ms per claim.
const cal: Calibration = { buildS: [1.5, 2, 2.5], cpPerBuildS: 0.5, dbPerBuildS: 0.03, claimBaseS: 0.006, claimPerQueuedS: 0 };
const load = makeWorkload({ orgs: 50, projects: 2000, hours: 0.25, pushesPerHour: 4000, burstEveryS: 300, seed: 1 });
const all = saturated(load);
const topo = (builders: number, replicas: number, cpShare = 1): Topology => ({ builders, replicas, balance: 'round-robin', cpShare });
const ceiling = (tp: Topology) => simulate(tp, 'fair', all, cal, 7, 1500).throughputPerMin;

t.test('throughput grows with builders until the bound, which names the resource that saturates', async (t) => {
  const one = ceiling(topo(1, 8));
  const four = ceiling(topo(4, 8));
  t.ok(four > 3.6 * one, `4 builders: ${four.toFixed(1)}/min, 1 builder: ${one.toFixed(1)}/min`);
  t.equal(bound(topo(4, 8), cal, all.pushes.length).by, 'builders');

  // One replica serves 120 builds a minute at 0.5 s each: 64 builders would do far more.
  const b = bound(topo(64, 1), cal, all.pushes.length);
  t.equal(b.by, 'replicas');
  t.equal(Math.round(b.perMin), 120);
  const sat = ceiling(topo(64, 1));
  t.ok(sat <= b.perMin * 1.01 && sat > b.perMin * 0.9, `saturated ${sat.toFixed(1)}/min against a bound of ${b.perMin.toFixed(1)}/min`);
});

t.test('more replicas lift a replica bound until the database is the bound', async (t) => {
  const two = ceiling(topo(64, 2));
  const four = ceiling(topo(64, 4));
  t.ok(four > 1.8 * two, `4 replicas: ${four.toFixed(1)}/min, 2: ${two.toFixed(1)}/min`);
  // Builders uploading straight to storage: a replica keeps a tenth of its work; 36 ms of the database per build caps at about 1,667/min.
  const b = bound(topo(256, 8, 0.1), cal, all.pushes.length);
  t.equal(b.by, 'database');
  const r = simulate(topo(256, 8, 0.1), 'fair', all, cal, 7, 3000);
  t.ok(r.throughputPerMin <= b.perMin * 1.01 && r.throughputPerMin > b.perMin * 0.85, `saturated ${r.throughputPerMin.toFixed(0)}/min against ${b.perMin.toFixed(0)}/min`);
  t.ok(r.dbBusy > 0.85, `database busy ${(r.dbBusy * 100).toFixed(0)}%`);
});

t.test('round robin spreads the work evenly over the replicas, least-loaded too', async (t) => {
  for (const balance of ['round-robin', 'least-loaded'] as const) {
    const r = simulate({ builders: 32, replicas: 4, balance, cpShare: 1 }, 'fair', load, cal, 7);
    t.ok(Math.min(...r.replicaBusy) > 0 && Math.max(...r.replicaBusy) < 0.95, 'busy, not saturated');
    t.ok(Math.max(...r.replicaBusy) - Math.min(...r.replicaBusy) < 0.05, `${balance}: ${r.replicaBusy.map((x) => x.toFixed(2)).join(' ')}`);
  }
});

t.test('fair queuing waits less for small organizations than FIFO under a burst', async (t) => {
  const fair = simulate(topo(8, 2), 'fair', load, cal, 7);
  const fifo = simulate(topo(8, 2), 'fifo', load, cal, 7);
  t.ok(fair.medianOrgP95 <= fifo.medianOrgP95, `median organization p95: fair ${fair.medianOrgP95.toFixed(1)} s, FIFO ${fifo.medianOrgP95.toFixed(1)} s`);
});
