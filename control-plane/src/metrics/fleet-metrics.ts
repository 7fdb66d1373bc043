/**
 * The fleet's Prometheus metrics (prom-client), one registry per control plane:
 *
 * | Metric | Type | Labels |
 * |---|---|---|
 * | `folio_queue_depth` | gauge, read at scrape | `state`: `waiting` (queued, runnable now), `backoff` (queued, waiting for a retry), `building` |
 * | `folio_queue_wait_seconds` | histogram | from queued (or runnable again) to claimed; `takeover` `true` when a dead builder's job was taken over |
 * | `folio_build_duration_seconds` | histogram | from claim to final report; `status` |
 * | `folio_deployments_finished_total` | counter | `status`: `deployed`, `failed`, `skipped` (commit already live), `retried` (back to the queue) |
 * | `folio_lease_takeovers_total` | counter | builds taken over after their builder stopped heartbeating |
 * | `folio_poison_jobs_total` | counter | deployments failed because builders died on them `MAX_ATTEMPTS` times |
 * | `folio_builders` | gauge, read at scrape | `state`: `building` (holds a live lease), `idle` (asked for work in the last 15 s) |
 * | `folio_analytics_ingested_total` | counter, read at scrape | `counter`: whatever the analytics ingestion reports through `analyticsCounters` |
 * | `folio_certificates` | gauge, read at scrape | custom domains' certificates by `status`: `pending`, `issued`, `renewing`, `failed` |
 * | `folio_certificate_soonest_expiry_seconds` | gauge, read at scrape | seconds until the first certificate in use expires (absent when none is); alert well before 0 |
 *
 * Plus Node's default process metrics (`folio_process_*`, `folio_nodejs_*`) of the control plane.
 */
import client from 'prom-client';
import type { Models } from '../db/models/index.ts';
import { CERTIFICATE_STATUSES } from '../db/models/certificate.ts';
import { queueEvents } from '../deploy/queue-events.ts';

/** A builder that asked for work within this long is counted idle. */
const SEEN_MS = 15_000;

export interface FleetMetricsOptions {
  m: Models;
  now(): Date;
  /** Monotonic counters of analytics ingestion (events accepted, dropped, …), read at each scrape. */
  analyticsCounters?(): Record<string, number>;
}

export interface FleetMetrics {
  registry: client.Registry;
  /** The text exposition format. */
  render(): Promise<string>;
  /** Stops listening to the queue. */
  close(): void;
}

export function fleetMetrics(opts: FleetMetricsOptions): FleetMetrics {
  const { m } = opts;
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'folio_' });
  const lastPoll = new Map<string, number>();

  new client.Gauge({
    name: 'folio_queue_depth', help: 'Deployments in the queue by state', labelNames: ['state'], registers: [registry],
    async collect() {
      const now = opts.now();
      const [waiting, backoff, building] = await Promise.all([
        m.Deployment.countDocuments({ status: 'queued', next_attempt_at: { $lte: now } }),
        m.Deployment.countDocuments({ status: 'queued', next_attempt_at: { $gt: now } }),
        m.Deployment.countDocuments({ status: 'building' }),
      ]);
      this.set({ state: 'waiting' }, waiting);
      this.set({ state: 'backoff' }, backoff);
      this.set({ state: 'building' }, building);
    },
  });
  const wait = new client.Histogram({
    name: 'folio_queue_wait_seconds', help: 'Time from queued (or runnable again) to claimed', labelNames: ['takeover'], registers: [registry],
    buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800],
  });
  const duration = new client.Histogram({
    name: 'folio_build_duration_seconds', help: 'Time from claim to the final report', labelNames: ['status'], registers: [registry],
    buckets: [1, 2, 5, 10, 20, 30, 60, 120, 300, 600],
  });
  const finished = new client.Counter({ name: 'folio_deployments_finished_total', help: 'Deployments by outcome', labelNames: ['status'], registers: [registry] });
  const takeovers = new client.Counter({ name: 'folio_lease_takeovers_total', help: 'Builds taken over after their builder stopped heartbeating', registers: [registry] });
  const poison = new client.Counter({ name: 'folio_poison_jobs_total', help: 'Deployments failed because builders kept dying on them', registers: [registry] });
  new client.Gauge({
    name: 'folio_builders', help: 'Builder workers by state', labelNames: ['state'], registers: [registry],
    async collect() {
      const now = opts.now().getTime();
      const building = new Set(await m.Deployment.distinct('lease_owner', { status: 'building', lease_expires_at: { $gte: opts.now() }, trigger: { $ne: 'ci' } }) as string[]);
      let idle = 0;
      for (const [id, at] of lastPoll) {
        if (now - at > SEEN_MS) lastPoll.delete(id);
        else if (!building.has(id)) idle++;
      }
      this.set({ state: 'building' }, building.size);
      this.set({ state: 'idle' }, idle);
    },
  });
  const analytics = new client.Counter({
    name: 'folio_analytics_ingested_total', help: 'Analytics ingestion counters', labelNames: ['counter'], registers: [registry],
    collect() {
      if (!opts.analyticsCounters) return;
      // The getter owns the counts: mirror them (they only grow, so the counter stays monotonic).
      this.reset();
      for (const [name, value] of Object.entries(opts.analyticsCounters())) if (Number.isFinite(value) && value >= 0) this.inc({ counter: name }, value);
    },
  });
  void analytics;
  new client.Gauge({
    name: 'folio_certificates', help: 'Custom domains\' certificates by status', labelNames: ['status'], registers: [registry],
    async collect() {
      const counts = await m.Certificate.aggregate<{ _id: string; n: number }>([{ $group: { _id: '$status', n: { $sum: 1 } } }]);
      for (const status of CERTIFICATE_STATUSES) this.set({ status }, counts.find((c) => c._id === status)?.n ?? 0);
    },
  });
  new client.Gauge({
    name: 'folio_certificate_soonest_expiry_seconds', help: 'Seconds until the first custom-domain certificate in use expires', registers: [registry],
    async collect() {
      const first = await m.Certificate.findOne({ not_after: { $ne: null } }, { not_after: 1 }).sort({ not_after: 1 }).lean();
      this.reset();
      if (first?.not_after) this.set((first.not_after.getTime() - opts.now().getTime()) / 1000);
    },
  });

  const events = queueEvents(m);
  const onClaimed = (e: { waitMs: number; takeover: boolean }) => {
    wait.observe({ takeover: String(e.takeover) }, e.waitMs / 1000);
    if (e.takeover) takeovers.inc();
  };
  const onFinished = (e: { status: string; buildMs?: number; reason?: string }) => {
    finished.inc({ status: e.status });
    if (e.buildMs !== undefined) duration.observe({ status: e.status }, e.buildMs / 1000);
    if (e.reason === 'poison') poison.inc();
  };
  const onSkipped = () => finished.inc({ status: 'skipped' });
  const onRetried = () => finished.inc({ status: 'retried' });
  const onPolled = (e: { workerId: string }) => { lastPoll.set(e.workerId, opts.now().getTime()); };
  events.on('claimed', onClaimed).on('finished', onFinished).on('skipped', onSkipped).on('retried', onRetried).on('polled', onPolled);

  return {
    registry,
    render: () => registry.metrics(),
    close() {
      events.off('claimed', onClaimed).off('finished', onFinished).off('skipped', onSkipped).off('retried', onRetried).off('polled', onPolled);
    },
  };
}
