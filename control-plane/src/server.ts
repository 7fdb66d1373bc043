/**
 * Starts the control plane's API: database (real or embedded), routes, HTTP listener.
 * Other parts (deployment queue, git server, site server) attach through `extraRoutes`,
 * `services` and `middleware`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { createOrganization } from './admin/organizations.ts';
import { connectDatabase, type Database } from './db/connect.ts';
import { dashboardApi, type DashboardApiOptions } from './dashboard/routes.ts';
import { hasOwner, issueOwnerClaim } from './dashboard/owner-claim.ts';
import { models, type Models } from './db/models/index.ts';
import type { Env } from './env.ts';
import { apiRoutes } from './api/routes.ts';
import { dashboardStatic } from './dashboard-static/serve-dashboard.ts';
import { closeEditorPreviews } from './editor/preview/previews.ts';
import { editorPreviewPages } from './editor/preview/serve-preview.ts';
import { attachEditorCollab } from './editor/collab/collab-server.ts';
import { editorCollabAccess } from './dashboard/editor-collab-access.ts';
import { createApp } from './http/app.ts';
import { answerClientError } from './http/client-error.ts';
import { listen } from './http/listen.ts';
import type { Logger } from './http/error-middleware.ts';
import type { Deps, RouteDef, Services } from './http/route.ts';
import { fleetMetrics, type FleetMetrics } from './metrics/fleet-metrics.ts';
import { metricsRoute } from './metrics/metrics-route.ts';
import { webhookDocs } from './outgoing-webhooks/openapi-webhooks.ts';
import { onCodePush } from './workflows/workflow-runner.ts';

export interface ControlPlaneOptions {
  env: Env;
  /** In-memory database (tests); otherwise durable under env.dataDir unless MONGODB_URI is set. */
  inMemory?: boolean;
  now?: () => Date;
  log?: Logger;
  validateResponses?: boolean;
  extraRoutes?: RouteDef[];
  services?: Services;
  middleware?: Koa.Middleware[];
  /** Port override (0 = ephemeral); default env.API_PORT. */
  port?: number;
  /** Counters of analytics ingestion, exported at `GET /metrics` (read at each scrape). */
  analyticsCounters?(): Record<string, number>;
  /** Options of the dashboard-internal API (`/dashboard/api`). */
  dashboard?: Omit<DashboardApiOptions, 'validateResponses'>;
}

export interface ControlPlane {
  /** API base URL, e.g. http://127.0.0.1:4000/v1 */
  apiUrl: string;
  port: number;
  db: Database;
  m: Models;
  deps: Deps;
  server: http.Server;
  /** The Prometheus metrics served at `GET /metrics`. */
  metrics: FleetMetrics;
  close(): Promise<void>;
}

export async function startControlPlane(opts: ControlPlaneOptions): Promise<ControlPlane> {
  const db = await connectDatabase({ mongodbUri: opts.env.MONGODB_URI, dataDir: opts.inMemory ? undefined : opts.env.dataDir, exclusive: true });
  const m = models(db.connection);
  const deps: Deps = { m, env: opts.env, now: opts.now ?? (() => new Date()), services: opts.services ?? {} };
  // A push to a managed repository starts the workflows whose code repository it is.
  deps.services.onBranchesMoved ??= onCodePush;
  const metrics = fleetMetrics({ m, now: deps.now, analyticsCounters: opts.analyticsCounters });
  const app = createApp({ deps, routes: apiRoutes(opts.extraRoutes, webhookDocs), log: opts.log, validateResponses: opts.validateResponses, extra: [
    metricsRoute(metrics, opts.env.METRICS_TOKEN),
    dashboardApi(deps, { ...opts.dashboard, validateResponses: opts.validateResponses }),
    ...(opts.middleware ?? []),
    // The web editor's previews (sandboxed pages under /editor-preview/<token>/).
    editorPreviewPages(deps),
    // Last: the dashboard app's pages and assets, for paths no API or Git route took.
    dashboardStatic(),
  ] });
  const handler = app.callback();
  const server = http.createServer(handler);
  server.keepAliveTimeout = 5_000;
  server.on('clientError', answerClientError);
  // The web editor's collaboration socket: the one WebSocket upgrade the API accepts.
  const collab = attachEditorCollab(server, deps, handler, editorCollabAccess);
  try {
    await listen(server, opts.port ?? opts.env.API_PORT, opts.env.API_HOST, 'API_PORT');
  } catch (err) {
    await collab.close();
    await db.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const apiUrl = `http://${opts.env.API_HOST}:${port}/v1`;
  if (!opts.env.PUBLIC_API_URL) deps.env = { ...opts.env, publicApiUrl: apiUrl };
  return {
    apiUrl, port, db, m, deps, server, metrics,
    async close() {
      metrics.close();
      await closeEditorPreviews(deps);
      await collab.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}

/**
 * On first start (no organization exists), creates the `default` organization on the free plan,
 * with no owner and no password. While it has no owner, every start issues a one-time owner
 * link (replacing the previous one) to be printed: whoever opens it sets the owner's email and
 * password in the dashboard. API keys are created there too (operators also have `npm run keys`).
 */
export async function bootstrap(m: Models, env: Env, now = new Date()): Promise<{ org: string; created: boolean; claimUrl?: string } | undefined> {
  const created = await m.Organization.countDocuments({}) === 0;
  if (created) await createOrganization(m, 'default', 'free', 'Default organization');
  const org = await m.Organization.findOne({ handle: 'default' }).lean();
  if (!org || await hasOwner(m, org._id)) return undefined;
  return { org: org.handle, created, claimUrl: await issueOwnerClaim(m, env, org._id, now) };
}
