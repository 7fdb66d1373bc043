/**
 * A discrete-event simulation of the builder fleet, for `npm run bench:fleet`: a push workload of
 * many projects across organizations against N builders, with the control plane's own rules
 * (pushes join a queued sync, one build per project at a time, claims by the control plane's
 * `FairShare` order) and its limits as measured (a single control-plane process that every claim
 * and every build's publishing goes through).
 *
 * - Workload (seeded): organizations' activity is Zipf-skewed (s = 1.1), projects are spread over
 *   organizations by the same law, pushes arrive as a Poisson process over `hours`, and every
 *   `burstEveryS` one organization (picked by activity) pushes all its projects at once.
 * - A build takes a builder time drawn from the measured distribution (bootstrap), then holds its
 *   builder while the control plane serves its `cpPerBuildS` (publishing, page records, report):
 *   the control plane is one FIFO server, so it caps throughput at 1 / cpPerBuildS builds/s. A
 *   claim costs the control plane `claimBaseS + claimPerQueuedS * queued` (it reads the runnable
 *   queue), measured on the embedded database.
 */
import { FairShare } from '@folio/control-plane/deploy/fair-share.ts';
import { randomFor } from '../corpus/random.ts';

export interface Workload { orgs: number; projects: number; hours: number; pushesPerHour: number; burstEveryS: number; seed: number }
export interface Calibration { buildS: number[]; cpPerBuildS: number; claimBaseS: number; claimPerQueuedS: number }
export interface SimResult {
  builders: number; policy: 'fair' | 'fifo'; builds: number; pushes: number; throughputPerMin: number; makespanS: number;
  waitP50: number; waitP95: number; waitP99: number;
  /**
   * Jain's index over organizations of the mean wait per sync divided by one plus the syncs of the
   * same organization queued ahead of it (its own backlog, which it waits behind under any
   * policy): 1 when no organization waits more for others than any other does.
   */
  jain: number;
  cpBusy: number;
  /** p95 wait of the busiest organization and of the median one. */
  busiestOrgP95: number; medianOrgP95: number;
}

interface Push { at: number; project: number }

/** Pushes (time in seconds, project index) and each project's organization. */
export function makeWorkload(w: Workload): { pushes: Push[]; orgOf: number[] } {
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

const quantile = (xs: number[], q: number) => { if (!xs.length) return 0; const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };

/** Jain's fairness index of `xs`: 1 when all are equal, 1/n when one has everything. */
export function jain(xs: number[]): number {
  const sum = xs.reduce((a, b) => a + b, 0);
  const sq = xs.reduce((a, b) => a + b * b, 0);
  return sq === 0 ? 1 : (sum * sum) / (xs.length * sq);
}

/** Runs the fleet of `builders` over `pushes`; waits are from a sync's first push to its claim. */
export function simulate(builders: number, policy: 'fair' | 'fifo', load: { pushes: Push[]; orgOf: number[] }, cal: Calibration, seed: number): SimResult {
  const rnd = randomFor(seed, 1).next;
  const { pushes, orgOf } = load;
  const queued = new Map<number, number>(); // project -> time its queued sync was created
  // Syncs of the same organization queued ahead of a new one: its own backlog, which it waits behind under any policy.
  const ahead = new Map<number, number>();
  const queuedOfOrg = new Map<number, number>();
  const normByOrg = new Map<number, number[]>();
  const building = new Set<number>();
  const fair = new FairShare();
  const waits: number[] = [];
  const waitsByOrg = new Map<number, number[]>();
  let cpBusy = 0;
  let builds = 0;
  let pi = 0;
  // Builder i is free at freeAt[i].
  const freeAt = Array.from({ length: builders }, () => 0);
  let now = 0;
  const pending: { at: number; project: number }[] = []; // builds that end at `at`
  // The control plane's calendar: work is booked at the earliest gap at or after its time, so a
  // publish booked for the end of a long build does not hold up a claim made before it.
  const booked: [number, number][] = [];
  const cp = (at: number, cost: number) => {
    while (booked.length && booked[0][1] < now) booked.shift();
    let start = at;
    let i = 0;
    for (; i < booked.length; i++) {
      const [s, e] = booked[i];
      if (e <= start) continue;
      if (s >= start + cost) break;
      start = e;
    }
    booked.splice(i, 0, [start, start + cost]);
    cpBusy += cost;
    return start + cost;
  };
  for (;;) {
    // Next event: a push, or a builder becoming free.
    const nextFree = Math.min(...freeAt);
    const nextPush = pi < pushes.length ? pushes[pi].at : Infinity;
    if (nextPush === Infinity && queued.size === 0 && pending.length === 0) break;
    if (nextPush <= nextFree || (queued.size === 0 && nextPush < Infinity)) {
      now = nextPush;
      const p = pushes[pi++];
      if (!queued.has(p.project)) {
        const org = orgOf[p.project];
        queued.set(p.project, p.at);
        ahead.set(p.project, queuedOfOrg.get(org) ?? 0);
        queuedOfOrg.set(org, (queuedOfOrg.get(org) ?? 0) + 1);
      }
      continue;
    }
    now = Math.max(now, nextFree);
    for (let i = pending.length - 1; i >= 0; i--) if (pending[i].at <= now) { building.delete(pending[i].project); pending.splice(i, 1); }
    const b = freeAt.indexOf(nextFree);
    const runnable = [...queued].filter(([p]) => !building.has(p));
    if (!runnable.length) {
      // Idle until the next push or the next build end.
      const wake = Math.min(nextPush, ...pending.map((x) => x.at));
      if (wake === Infinity) break;
      freeAt[b] = Math.max(freeAt[b], wake);
      continue;
    }
    const claimAt = cp(now, cal.claimBaseS + cal.claimPerQueuedS * queued.size);
    let chosen: [number, number];
    if (policy === 'fifo') chosen = runnable.reduce((a, c) => (c[1] < a[1] ? c : a));
    else {
      const groups = new Map<number, { org: string; oldest: number; first: [number, number] }>();
      for (const r of runnable) {
        const org = orgOf[r[0]];
        const g = groups.get(org);
        if (!g || r[1] < g.oldest) groups.set(org, { org: String(org), oldest: r[1], first: r });
      }
      chosen = fair.order([...groups.values()])[0].first;
      fair.charge(String(orgOf[chosen[0]]), 1);
    }
    const [project, since] = chosen;
    queued.delete(project);
    building.add(project);
    const wait = claimAt - since;
    waits.push(wait);
    const org = orgOf[project];
    queuedOfOrg.set(org, queuedOfOrg.get(org)! - 1);
    if (!normByOrg.has(org)) normByOrg.set(org, []);
    normByOrg.get(org)!.push(wait / (1 + ahead.get(project)!));
    if (!waitsByOrg.has(org)) waitsByOrg.set(org, []);
    waitsByOrg.get(org)!.push(wait);
    const built = claimAt + cal.buildS[Math.floor(rnd() * cal.buildS.length)];
    const end = cp(built, cal.cpPerBuildS);
    pending.push({ at: end, project });
    freeAt[b] = end;
    builds++;
  }
  const makespan = Math.max(now, ...freeAt);
  const orgP95 = [...waitsByOrg.values()].map((w) => quantile(w, 0.95)).sort((a, b) => a - b);
  const busiest = waitsByOrg.get(0) ?? [];
  return {
    builders, policy, builds, pushes: pushes.length, makespanS: makespan, throughputPerMin: builds / makespan * 60,
    waitP50: quantile(waits, 0.5), waitP95: quantile(waits, 0.95), waitP99: quantile(waits, 0.99),
    jain: jain([...normByOrg.values()].map((w) => w.reduce((a, b) => a + b, 0) / w.length)),
    cpBusy: cpBusy / makespan, busiestOrgP95: quantile(busiest, 0.95), medianOrgP95: orgP95[Math.floor(orgP95.length / 2)] ?? 0,
  };
}
