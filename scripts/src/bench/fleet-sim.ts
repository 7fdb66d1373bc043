/**
 * A discrete-event simulation of the builder fleet, for `npm run bench:fleet`: a push workload of
 * many projects across organizations against N builders and R control-plane replicas sharing one
 * database, with the control plane's own rules (pushes join a queued sync, one build per project
 * at a time, claims by the control plane's `FairShare` order) and its costs as measured.
 *
 * - Workload (seeded): organizations' activity is Zipf-skewed (s = 1.1), projects are spread over
 *   organizations by the same law, pushes arrive as a Poisson process over `hours`, and every
 *   `burstEveryS` one organization (picked by activity) pushes all its projects at once.
 * - A claim is work for the database: `claimBaseS + claimPerQueuedS * queued` (18 operations
 *   that read queue heads, nearly flat in the queue's length), served in order of arrival.
 * - A build takes a builder time drawn from the measured distribution (bootstrap), then holds its
 *   builder while one replica serves `cpPerBuildS * cpShare` of CPU (publishing, page records,
 *   the report) and the database `dbPerBuildS` (its writes besides the claim). The replica is
 *   picked by the load balancer: round robin, or the one that would finish soonest. A build's
 *   requests go to one replica because a builder's HTTP client keeps its connections open, and a
 *   TCP balancer pins a connection to one backend.
 * - Each replica and the database is one server with a calendar: work is booked at the earliest
 *   gap at or after its time, so a publish booked for the end of a long build does not hold up a
 *   claim made before it.
 *
 * `bound()` is the ceiling those costs put on deployments per minute, by resource.
 */
import { FairShare } from '@folio/control-plane/deploy/fair-share.ts';
import { randomFor } from '../corpus/random.ts';

export interface Workload { orgs: number; projects: number; hours: number; pushesPerHour: number; burstEveryS: number; seed: number }
export interface Calibration {
  /** Builder-side seconds of a build (the control plane's share taken out). */
  buildS: number[];
  /** A replica's CPU seconds per build, uploads through its object routes included. */
  cpPerBuildS: number;
  /** The database's seconds per build besides the claim. */
  dbPerBuildS: number;
  claimBaseS: number;
  claimPerQueuedS: number;
}
export interface Topology {
  builders: number;
  replicas: number;
  /** How the load balancer picks a replica: the next in turn, or the one that would finish soonest. */
  balance: 'round-robin' | 'least-loaded';
  /** Share of `cpPerBuildS` a replica still does (1 today; less once builders upload straight to storage). */
  cpShare: number;
}
export interface SimResult {
  builds: number; pushes: number; throughputPerMin: number; makespanS: number;
  waitP50: number; waitP95: number; waitP99: number;
  /**
   * Jain's index over organizations of the mean wait per sync divided by one plus the syncs of the
   * same organization queued ahead of it (its own backlog, which it waits behind under any
   * policy): 1 when no organization waits more for others than any other does.
   */
  jain: number;
  /** Each replica's busy share of the run, and the database's. */
  replicaBusy: number[]; dbBusy: number;
  /** p95 wait of the busiest organization and of the median one. */
  busiestOrgP95: number; medianOrgP95: number;
}
export interface Bound { perMin: number; by: 'builders' | 'replicas' | 'database'; builders: number; replicas: number; database: number }

interface Push { at: number; project: number }
export interface Load { pushes: Push[]; orgOf: number[] }

/** Pushes (time in seconds, project index) and each project's organization. */
export function makeWorkload(w: Workload): Load {
  const rnd = randomFor(w.seed, 0).next;
  const zipf = (n: number) => { const ws = Array.from({ length: n }, (_, i) => 1 / (i + 1) ** 1.1); const sum = ws.reduce((a, b) => a + b, 0); return ws.map((x) => x / sum); };
  const orgShare = zipf(w.orgs);
  // Projects per organization follow the same skew, at least one each.
  const counts = orgShare.map((s) => Math.max(1, Math.round(s * (w.projects - w.orgs)) + 1));
  let extra = counts.reduce((a, b) => a + b, 0) - w.projects;
  for (let i = 0; extra > 0; i = (i + 1) % w.orgs) if (counts[i] > 1) { counts[i]--; extra--; }
  for (let i = w.orgs - 1; extra < 0; i = (i - 1 + w.orgs) % w.orgs) { counts[i]++; extra++; }
  const orgOf: number[] = counts.flatMap((c, org) => Array.from({ length: c }, () => org));
  const projectsOf = counts.map(() => [] as number[]);
  orgOf.forEach((org, p) => projectsOf[org].push(p));
  const pick = (weights: number[]) => { let r = rnd(); for (let i = 0; i < weights.length; i++) { r -= weights[i]; if (r <= 0) return i; } return weights.length - 1; };
  const horizon = w.hours * 3600;
  const pushes: Push[] = [];
  for (let t = 0; ;) {
    t += -Math.log(1 - rnd()) * 3600 / w.pushesPerHour;
    if (t >= horizon) break;
    const org = pick(orgShare);
    const list = projectsOf[org];
    pushes.push({ at: t, project: list[Math.floor(rnd() * list.length)] });
  }
  for (let t = w.burstEveryS; t < horizon; t += w.burstEveryS) {
    const org = pick(orgShare);
    for (const p of projectsOf[org]) pushes.push({ at: t, project: p });
  }
  pushes.sort((a, b) => a.at - b.at);
  return { pushes, orgOf };
}

/** Every project of `load` pushed at once: the queue never runs dry, so throughput is the ceiling. */
export function saturated(load: Load): Load {
  return { pushes: load.orgOf.map((_, project) => ({ at: 0, project })), orgOf: load.orgOf };
}

const quantile = (xs: number[], q: number) => { if (!xs.length) return 0; const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** Jain's fairness index of `xs`: 1 when all are equal, 1/n when one has everything. */
export function jain(xs: number[]): number {
  const sum = xs.reduce((a, b) => a + b, 0);
  const sq = xs.reduce((a, b) => a + b * b, 0);
  return sq === 0 ? 1 : (sum * sum) / (xs.length * sq);
}

/** One server (a replica, the database): work booked at the earliest gap at or after its time. */
class Calendar {
  busy = 0;
  private booked: [number, number][] = [];

  /** When work of `cost` seconds asked for at `at` would start. */
  startOf(at: number, cost: number, now: number): number {
    while (this.booked.length && this.booked[0][1] < now) this.booked.shift();
    let start = at;
    for (const [s, e] of this.booked) {
      if (e <= start) continue;
      if (s >= start + cost) break;
      start = e;
    }
    return start;
  }

  /** Books the work; returns when it ends. */
  book(at: number, cost: number, now: number): number {
    const start = this.startOf(at, cost, now);
    let i = 0;
    while (i < this.booked.length && this.booked[i][0] < start) i++;
    this.booked.splice(i, 0, [start, start + cost]);
    this.busy += cost;
    return start + cost;
  }
}

/** The deployments per minute each resource allows when the queue never runs dry, and the least of them. */
export function bound(topo: Topology, cal: Calibration, queued: number): Bound {
  const claimS = cal.claimBaseS + cal.claimPerQueuedS * queued;
  const cpS = cal.cpPerBuildS * topo.cpShare;
  const builders = topo.builders * 60 / (mean(cal.buildS) + cpS + claimS + cal.dbPerBuildS);
  const replicas = cpS > 0 ? topo.replicas * 60 / cpS : Infinity;
  const database = 60 / Math.max(1e-9, claimS + cal.dbPerBuildS);
  const perMin = Math.min(builders, replicas, database);
  return { perMin, by: perMin === builders ? 'builders' : perMin === replicas ? 'replicas' : 'database', builders, replicas, database };
}

/**
 * Runs the fleet over `load`; waits are from a sync's first push to its claim. `stopAfter` ends
 * the run after that many builds (a saturation run needs no more to find the ceiling).
 */
export function simulate(topo: Topology, policy: 'fair' | 'fifo', load: Load, cal: Calibration, seed: number, stopAfter = Infinity): SimResult {
  const rnd = randomFor(seed, 1).next;
  const { pushes, orgOf } = load;
  const since = new Map<number, number>(); // queued project -> time its queued sync was created
  const queueOfOrg = new Map<number, number[]>(); // organization -> its queued projects, oldest first
  // Syncs of the same organization queued ahead of a new one: its own backlog, which it waits behind under any policy.
  const ahead = new Map<number, number>();
  const normByOrg = new Map<number, number[]>();
  const building = new Set<number>();
  const fair = new FairShare();
  const waits: number[] = [];
  const waitsByOrg = new Map<number, number[]>();
  const replicas = Array.from({ length: topo.replicas }, () => new Calendar());
  const db = new Calendar();
  const cpS = cal.cpPerBuildS * topo.cpShare;
  let turn = 0;
  let builds = 0;
  let pi = 0;
  const freeAt = Array.from({ length: topo.builders }, () => 0); // builder i is free at freeAt[i]
  let now = 0;
  const pending: { at: number; project: number }[] = []; // builds that end at `at`

  /** The organization's oldest queued project not building now, or -1. */
  const head = (list: number[]) => { for (const p of list) if (!building.has(p)) return p; return -1; };
  const choose = (): number => {
    let best = -1;
    let bestKey = [Infinity, Infinity, Infinity];
    for (const [org, list] of queueOfOrg) {
      const p = head(list);
      if (p < 0) continue;
      // Fair: the organization with the smallest start tag, then the oldest; FIFO: the oldest.
      const key = policy === 'fair' ? [fair.startTag(String(org)), since.get(p)!, org] : [since.get(p)!, org, 0];
      if (key[0] < bestKey[0] || (key[0] === bestKey[0] && (key[1] < bestKey[1] || (key[1] === bestKey[1] && key[2] < bestKey[2])))) { best = p; bestKey = key; }
    }
    return best;
  };

  while (builds < stopAfter) {
    // Next event: a push, or a builder becoming free.
    const nextFree = Math.min(...freeAt);
    const nextPush = pi < pushes.length ? pushes[pi].at : Infinity;
    if (nextPush === Infinity && since.size === 0 && pending.length === 0) break;
    if (nextPush <= nextFree || (since.size === 0 && nextPush < Infinity)) {
      now = nextPush;
      const p = pushes[pi++];
      if (!since.has(p.project)) {
        const org = orgOf[p.project];
        since.set(p.project, p.at);
        if (!queueOfOrg.has(org)) queueOfOrg.set(org, []);
        ahead.set(p.project, queueOfOrg.get(org)!.length);
        queueOfOrg.get(org)!.push(p.project);
      }
      continue;
    }
    now = Math.max(now, nextFree);
    for (let i = pending.length - 1; i >= 0; i--) if (pending[i].at <= now) { building.delete(pending[i].project); pending.splice(i, 1); }
    const b = freeAt.indexOf(nextFree);
    const project = choose();
    if (project < 0) {
      // Idle until the next push or the next build end.
      const wake = Math.min(nextPush, ...pending.map((x) => x.at));
      if (wake === Infinity) break;
      freeAt[b] = Math.max(freeAt[b], wake);
      continue;
    }
    const claimAt = db.book(now, cal.claimBaseS + cal.claimPerQueuedS * since.size, now);
    const org = orgOf[project];
    if (policy === 'fair') fair.charge(String(org), 1);
    const list = queueOfOrg.get(org)!;
    list.splice(list.indexOf(project), 1);
    if (!list.length) queueOfOrg.delete(org);
    const wait = claimAt - since.get(project)!;
    since.delete(project);
    building.add(project);
    waits.push(wait);
    if (!normByOrg.has(org)) normByOrg.set(org, []);
    normByOrg.get(org)!.push(wait / (1 + ahead.get(project)!));
    if (!waitsByOrg.has(org)) waitsByOrg.set(org, []);
    waitsByOrg.get(org)!.push(wait);
    const built = claimAt + cal.buildS[Math.floor(rnd() * cal.buildS.length)];
    // Round robin takes the next in turn; least-loaded the one that would start soonest, ties taken in turn.
    const first = turn++;
    let replica = replicas[first % replicas.length];
    if (topo.balance === 'least-loaded') {
      for (let i = 1; i < replicas.length; i++) {
        const r = replicas[(first + i) % replicas.length];
        if (r.startOf(built, cpS, now) < replica.startOf(built, cpS, now)) replica = r;
      }
    }
    const end = db.book(replica.book(built, cpS, now), cal.dbPerBuildS, now);
    pending.push({ at: end, project });
    freeAt[b] = end;
    builds++;
  }
  // Stopped early, the builds finished by the last claim are about all but one per builder.
  const stopped = builds >= stopAfter;
  const makespan = stopped ? now : Math.max(now, ...freeAt);
  const finished = stopped ? Math.max(0, builds - topo.builders) : builds;
  const orgP95 = [...waitsByOrg.values()].map((w) => quantile(w, 0.95)).sort((a, b) => a - b);
  const busiest = waitsByOrg.get(0) ?? [];
  return {
    builds, pushes: pushes.length, makespanS: makespan, throughputPerMin: finished / makespan * 60,
    waitP50: quantile(waits, 0.5), waitP95: quantile(waits, 0.95), waitP99: quantile(waits, 0.99),
    jain: jain([...normByOrg.values()].map((w) => w.reduce((a, b) => a + b, 0) / w.length)),
    replicaBusy: replicas.map((r) => Math.min(r.busy, makespan) / makespan), dbBusy: Math.min(db.busy, makespan) / makespan,
    busiestOrgP95: quantile(busiest, 0.95), medianOrgP95: orgP95[Math.floor(orgP95.length / 2)] ?? 0,
  };
}
