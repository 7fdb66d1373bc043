/**
 * The whole control plane on one machine: the API with the internal build API and Git smart
 * HTTP mounted beside it, and the site server. Builder workers run as separate processes (see
 * scripts/src/start.ts): customer MDX never runs in the control plane.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { storeFromEnv, type ObjectStore } from '@folio/builder';
import { beaconHandler } from './analytics/beacon.ts';
import { ensureAnalyticsIndexes } from './analytics/indexes.ts';
import { logIngestApi } from './analytics/log-ingest-api.ts';
import { AnalyticsRecorder } from './analytics/recorder.ts';
import { recordServed } from './analytics/served-request.ts';
import { usageToAnalytics } from './analytics/usage-events.ts';
import type { ProjectHooks } from './projects/project-hooks.ts';
import { ciApi } from './build-api/ci-api.ts';
import { sweepPublishJournal, usePublishRollback } from './deploy/publish-rollback.ts';
import { finishInterruptedPushes, SWEEP_EVERY_MS as PUSH_SWEEP_MS } from './git/interrupted-pushes.ts';
import { runDueSchedules, SCHEDULE_EVERY_MS } from './workflows/workflow-runner.ts';
import { internalApi } from './build-api/internal-api.ts';
import { warmProcessStarter } from './git/process-starter.ts';
import { startWebhookScheduler } from './outgoing-webhooks/deliver.ts';
import { watchDeployments } from './outgoing-webhooks/events.ts';
import { watchDeploymentsForChat } from './chat-notifications/deployment-notifications.ts';
import { feedbackNotifier } from './chat-notifications/feedback-notifications.ts';
import { deploymentPageUrl } from './git/git-http.ts';
import type { Env } from './env.ts';
import { gitHttpMiddleware } from './git/git-http.ts';
import { createManagedRepo, deleteManagedRepo } from './git/managed-repos.ts';
import type { Deps, Services } from './http/route.ts';
import { configureLog } from './log/structured-log.ts';
import { startControlPlane, type ControlPlane, type ControlPlaneOptions } from './server.ts';
import { chainHandlers, siteRoutes } from './assistant/site-routes.ts';
import { siteIndex, type SiteIndex } from './assistant/site-index.ts';
import { warmOnDeployment } from './assistant/warm-on-deployment.ts';
import type { UsageSink } from './assistant/usage-sink.ts';
import { passwordGate } from './sites/password-gate.ts';
import { readerGate } from './sites/reader-auth/reader-gate.ts';
import { siteBranding } from './sites/site-branding.ts';
import { themedPages } from './sites/themed-page.ts';
import { startSiteServer, type SiteServer } from './sites/site-server.ts';
import { domainTls, type DomainTls } from './domains/domain-tls.ts';
import { tlsAskApi } from './domains/tls-ask.ts';
import { projectPrefixes } from './sites/bucket-prefixes.ts';
import { siteUrlOf } from './sites/site-url.ts';

/** How often leftover rollback copies are looked for. */
const JOURNAL_SWEEP_MS = 60 * 60_000;

export interface PlatformOptions extends Omit<ControlPlaneOptions, 'middleware' | 'services'> {
  /** Site server port override (0 = ephemeral); default env.SITE_PORT. */
  sitePort?: number;
  /** Object store override (tests); default from the environment. */
  store?: ObjectStore;
  services?: Services;
  /** Where the assistant and the MCP endpoint report opens, messages and reads (analytics); default: nowhere. */
  usage?: UsageSink;
}

export interface Platform {
  cp: ControlPlane;
  site: SiteServer;
  store: ObjectStore;
  /** Workers present this to claim jobs. */
  workerSecret: string;
  /** Origin workers reach the control plane at (internal API and Git). */
  internalUrl: string;
  /** The one analytics recording call (site server, beacons, CDN logs, assistant). */
  analytics: AnalyticsRecorder;
  /** Outgoing webhook deliveries: `kick()` sends what is due now. */
  webhooks: { kick(): void; stop(): Promise<void> };
  /** The assistant's and MCP's per-deployment index cache, warmed when a deployment finishes. */
  assistantIndex: SiteIndex;
  /** Custom domains' certificates and the HTTPS listener; only when ACME_DIRECTORY_URL is set. */
  tls?: DomainTls;
  close(): Promise<void>;
}

/** Keeps managed repositories and published files in step with projects. */
function projectHooks(getDeps: () => Deps, store: ObjectStore): ProjectHooks {
  return {
    async created(project) {
      if (!project.github_repo) await createManagedRepo(getDeps(), project.id, project.github_branch);
    },
    async deleted(project) {
      await deleteManagedRepo(getDeps(), project.id);
      // Production and every branch preview.
      for (const prefix of projectPrefixes(project.id)) {
        await store.delete((await store.list(prefix)).map((k) => (k.startsWith(prefix) ? k : prefix + k)));
      }
    },
  };
}

export async function startPlatform(opts: PlatformOptions): Promise<Platform> {
  const env: Env = opts.env;
  fs.mkdirSync(env.dataDir, { recursive: true });
  // The database journal, managed repositories and local sites: readable by this user alone, so
  // no other user (a compile sandbox runs as one) can read or write them.
  fs.chmodSync(env.dataDir, 0o700);
  configureLog({ format: env.LOG_FORMAT, level: env.LOG_LEVEL });
  // Git's processes start from a helper forked now, while this heap is small (git/process-starter.ts).
  warmProcessStarter();
  const store = opts.store ?? storeFromEnv(env, env.dataDir);
  const workerSecret = env.WORKER_SECRET ?? randomBytes(24).toString('base64url');
  // Hooks, middleware and metrics are built before the control plane and its recorder exist; they read them through this.
  const ref: { deps?: Deps; analytics?: AnalyticsRecorder } = {};
  const services: Services = { siteStore: store, ...opts.services };
  if (env.OUTBOUND_PRIVATE_HOSTS.length) services.fetchAllowHosts ??= env.OUTBOUND_PRIVATE_HOSTS;
  services.projectHooks = [projectHooks(() => ref.deps!, store)];
  const lazy = (make: (d: Deps) => import('koa').Middleware): import('koa').Middleware => {
    let mw: import('koa').Middleware | undefined;
    return (ctx, next) => (mw ??= make(ref.deps!))(ctx, next);
  };
  const cp = await startControlPlane({
    ...opts, services,
    // Ingestion's counters for /metrics (`buffered` is a level, not a count: left out).
    analyticsCounters: opts.analyticsCounters ?? (() => {
      const { received, inserted, dropped, failed } = ref.analytics?.stats() ?? { received: 0, inserted: 0, dropped: 0, failed: 0 };
      return { received, inserted, dropped, failed };
    }),
    middleware: [lazy((d) => internalApi(d, workerSecret)), lazy((d) => ciApi(d)), lazy((d) => gitHttpMiddleware(d)), lazy((d) => logIngestApi(d, ref.analytics!)), lazy((d) => tlsAskApi(d))],
  });
  ref.deps = cp.deps;
  // The job object routes preserve what a deployment replaces in this store; a failed one is undone from it.
  usePublishRollback(cp.m, services.siteStore ?? store);
  const analytics = new AnalyticsRecorder(cp.m, { onError: (err) => opts.log?.('analytics write failed', err) });
  ref.analytics = analytics;
  await ensureAnalyticsIndexes(cp.m, env.ANALYTICS_RETENTION_DAYS);
  // Raw events never rolled up (recorded before rollups existed) are rolled up once, in the
  // recorder's write chain so live batches wait instead of racing it (analytics/rollup-backfill.ts).
  void analytics.backfill().then(
    (r) => {
      if (r.days > 0) opts.log?.(`analytics backfill rolled up ${r.events} events of ${r.days} days`);
      if (r.summed > 0) opts.log?.(`analytics backfill summed the hours of ${r.summed} day documents`);
    },
    (err) => opts.log?.('analytics backfill failed', err),
  );
  const internalUrl = `http://${env.API_HOST === '0.0.0.0' ? '127.0.0.1' : env.API_HOST}:${cp.port}`;
  // Workers in other containers set INTERNAL_API_URL (e.g. http://control-plane:4000); 127.0.0.1 is only right on one machine.
  services.internalBaseUrl ??= env.INTERNAL_API_URL?.replace(/\/$/, '') ?? internalUrl;
  const log = (msg: string) => (err: unknown) => opts.log?.(msg, err);
  // Rollback copies a deployed deployment's background discard left behind (publish-rollback.ts).
  const sweepJournal = () => void sweepPublishJournal(cp.m, cp.deps.now()).catch(log('publish journal sweep failed'));
  sweepJournal();
  const journalSweep = setInterval(sweepJournal, JOURNAL_SWEEP_MS);
  journalSweep.unref();
  // Pushes a dead process left half done (git/interrupted-pushes.ts), on whichever replica looks first.
  const sweepPushes = () => void finishInterruptedPushes(cp.deps).catch(log('interrupted push sweep failed'));
  sweepPushes();
  const pushSweep = setInterval(sweepPushes, PUSH_SWEEP_MS);
  pushSweep.unref();
  // Self-updating workflows' schedules (workflows/workflow-runner.ts): each due run is taken by one replica's lease.
  const scheduleOwner = randomUUID();
  const runSchedules = () => void runDueSchedules(cp.deps, scheduleOwner).catch(log('workflow schedule failed'));
  const scheduleTimer = setInterval(runSchedules, SCHEDULE_EVERY_MS);
  scheduleTimer.unref();
  const webhooks = startWebhookScheduler({
    m: cp.m, now: () => cp.deps.now(), onError: log('outgoing webhook delivery failed'),
    allowHosts: () => services.fetchAllowHosts,
  });
  const unwatchHooks = watchDeployments(cp.m, { now: () => cp.deps.now(), siteUrlOf: (p) => siteUrlOf(cp.deps, p), onQueued: webhooks.kick, onError: log('outgoing webhook event failed') });
  // Chat notifications are messages of the same delivery loop (chat-notifications/).
  const unwatchChat = watchDeploymentsForChat(cp.m, {
    now: () => cp.deps.now(), siteUrlOf: (p) => siteUrlOf(cp.deps, p), deploymentUrlOf: (projectId, id) => deploymentPageUrl(cp.deps, projectId, id),
    onQueued: webhooks.kick, onError: log('chat notification failed'),
  });
  const unwatch = () => { unwatchHooks(); unwatchChat(); };
  const onFeedback = feedbackNotifier(cp.m, { now: () => cp.deps.now(), siteUrlOf: (p) => siteUrlOf(cp.deps, p), onQueued: webhooks.kick, onError: log('chat notification failed') });
  const assistantIndex = siteIndex({ store });
  const stopWarming = warmOnDeployment(cp.m, assistantIndex);
  const tls = env.ACME_DIRECTORY_URL ? domainTls({ m: cp.m, env, now: () => cp.deps.now(), onError: log('certificate check failed') }) : undefined;
  if (tls) services.kickCertificates = () => tls.scheduler.kick();
  const schemaPath = new URL('../../builder/schema/docs.schema.json', import.meta.url);
  // The badge follows the organization's current plan at serve time (docs/decisions/107).
  const branding = siteBranding(cp.m, () => cp.deps.now());
  // The sign-in pages and the password form wear the site's theme, from its live build's 404 page.
  const themed = themedPages({ m: cp.m, store });
  const site = await startSiteServer({
    m: cp.m, store, sitesDomain: env.SITES_DOMAIN, siteUrlTemplate: () => cp.deps.env.siteUrlTemplate, host: env.SITE_HOST, port: opts.sitePort ?? env.SITE_PORT,
    gate: readerGate({
      m: cp.m, trustProxy: env.TRUST_PROXY, now: opts.now, allowHosts: () => services.fetchAllowHosts ?? [],
      password: passwordGate({ m: cp.m, trustProxy: env.TRUST_PROXY, now: opts.now, branding, themed }), branding, themed,
    }),
    branding,
    handle: chainHandlers(
      siteRoutes({ m: cp.m, store, env, sites: assistantIndex, usage: opts.usage ?? usageToAnalytics(analytics, env.TRUST_PROXY), now: opts.now }),
      beaconHandler({ recorder: analytics, trustProxy: env.TRUST_PROXY, now: () => cp.deps.now().getTime(), onFeedback }),
    ),
    onServed: recordServed(analytics, env.TRUST_PROXY),
    beforeSites: tls?.beforeSites,
    globalFiles: fs.existsSync(schemaPath) ? { '/docs.schema.json': { body: fs.readFileSync(schemaPath), contentType: 'application/schema+json' } } : {},
  }).catch(async (err: unknown) => { clearInterval(journalSweep); clearInterval(pushSweep); clearInterval(scheduleTimer); unwatch(); stopWarming(); await webhooks.stop(); await cp.close(); throw err; });
  await tls?.start(site.handle).catch(async (err: unknown) => { clearInterval(journalSweep); clearInterval(pushSweep); clearInterval(scheduleTimer); unwatch(); stopWarming(); await webhooks.stop(); await site.close(); await cp.close(); throw err; });
  // SITE_PORT=0 takes a free port: the default site URLs (API, webhooks, logs) name the one it got.
  if (env.SITE_URL_TEMPLATE === undefined && env.SITE_PORT === 0) env.siteUrlTemplate = cp.deps.env.siteUrlTemplate = `http://{slug}.${env.SITES_DOMAIN}:${site.port}`;
  return {
    cp, site, store, workerSecret, internalUrl, analytics, webhooks, assistantIndex, tls,
    async close() {
      await tls?.close();
      clearInterval(journalSweep); clearInterval(pushSweep); clearInterval(scheduleTimer);
      unwatch();
      stopWarming();
      await webhooks.stop();
      await site.close();
      await analytics.close();
      await cp.close();
    },
  };
}
