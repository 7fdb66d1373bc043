/**
 * Server-Sent Events of deployments as they are created and change state, for a project
 * (`GET /projects/{id}/deployments/events`) or every project of the organization
 * (`GET /deployments/events`): `event: deployment` with the deployment's dashboard detail for
 * each of the newest deployments when the stream opens (so a reconnecting client catches up),
 * then for each one that appears or changes.
 *
 * What changed is found by reading the deployments again and comparing them with what was sent,
 * not from the events alone: the newest {@link STREAM_WINDOW}, every one still queued or building
 * (up to {@link STREAM_ACTIVE_LIMIT}: fifty pushes at once are fifty deployments to follow, most
 * of them outside the newest twenty), and every one last sent while it was queued or building,
 * so its end is sent even after newer deployments pushed it out of the window. Whatever path
 * made the change whatever path made the change (a push, a GitHub webhook, the
 * API, a CI run, a retry, another control-plane replica) the stream sees it. The queue's events
 * (queue-events.ts) make the read happen at once on this replica; a read every
 * {@link STREAM_POLL_MS} catches what other replicas did. A comment line at each idle read keeps
 * proxies from closing the stream.
 */
import type Koa from 'koa';
import type { Deployment } from '../db/models/index.ts';
import { queueEvents, type QueueEventMap } from '../deploy/queue-events.ts';
import type { DeploymentFilter } from '../db/models/deployment.ts';
import type { Deps } from '../http/route.ts';

/** How often a stream reads the deployments again when no queue event woke it. */
export const STREAM_POLL_MS = 2_000;
/** How many of the newest deployments a stream watches (the Deployments page lists as many). */
export const STREAM_WINDOW = 20;
/** How many deployments still queued or building a stream follows beyond the window. */
export const STREAM_ACTIVE_LIMIT = 500;

const ACTIVE: Deployment['status'][] = ['queued', 'building'];

const EVENT_NAMES: readonly (keyof QueueEventMap)[] = ['queued', 'claimed', 'logged', 'finished', 'skipped', 'retried', 'released'];

/** What the stream compares: a deployment is sent again when any of it changes. */
const signature = (d: Deployment) => JSON.stringify([d.status, d.commit_sha, d.finished_at, d.error, d.pages_failed, d.attempts, d.commit_info, d.log]);

export interface DeploymentStreamOptions {
  /**
   * The projects whose deployments the stream watches (one project, or an organization's
   * projects), asked again at every read: a project created while the stream is open is watched
   * from the next read on. A queue event naming another project is no reason to read again.
   */
  projects(): Promise<readonly string[]>;
  /** Turns a deployment into what is sent. */
  serialize(d: Deployment): unknown;
  /** Runs on each read before anything is sent (adds commit messages, for instance). */
  enrich?(rows: Deployment[]): Promise<void>;
}

/** Answers `ctx` with the stream until the client goes away. */
export async function streamDeployments(ctx: Koa.Context, deps: Deps, opts: DeploymentStreamOptions): Promise<void> {
  ctx.req.socket.setTimeout(0);
  ctx.respond = false;
  const res = ctx.res;
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no', Connection: 'keep-alive' });
  // How long a disconnected EventSource waits before it reconnects.
  res.write('retry: 3000\n\n');
  const sent = new Map<string, string>();
  /** Deployments last sent while queued or building: read until their end has been sent. */
  const following = new Set<string>();
  let closed = false;
  let reading: Promise<void> | undefined;
  let again = false;
  let watched = new Set<string>();
  const read = async () => {
    const ids = await opts.projects();
    watched = new Set(ids);
    const filter: DeploymentFilter = { project_id: { $in: [...ids] } };
    const [newest, active, followed] = await Promise.all([
      deps.m.Deployment.find(filter).sort({ started_at: -1, _id: -1 }).limit(STREAM_WINDOW).lean(),
      deps.m.Deployment.find({ ...filter, status: { $in: ACTIVE } }).sort({ started_at: -1, _id: -1 }).limit(STREAM_ACTIVE_LIMIT).lean(),
      following.size ? deps.m.Deployment.find({ _id: { $in: [...following] } }).lean() : [],
    ]) as Deployment[][];
    const byId = new Map<string, Deployment>();
    for (const d of [...newest!, ...active!, ...followed!]) byId.set(String(d._id), d);
    const rows = [...byId.values()].sort((a, b) => (+new Date(b.started_at) - +new Date(a.started_at)) || (String(b._id) < String(a._id) ? -1 : 1));
    await opts.enrich?.(rows);
    let wrote = false;
    // Oldest first, so a client that appends in arrival order keeps the newest last.
    for (const d of rows.reverse()) {
      const sig = signature(d);
      if (sent.get(d._id) === sig) continue;
      sent.set(d._id, sig);
      if (ACTIVE.includes(d.status)) following.add(String(d._id)); else following.delete(String(d._id));
      if (closed) return;
      res.write(`event: deployment\ndata: ${JSON.stringify(opts.serialize(d))}\n\n`);
      wrote = true;
    }
    if (!wrote && !closed) res.write(': waiting\n\n');
  };
  // One read at a time; an event during a read asks for one more after it.
  const check = () => {
    if (closed) return;
    if (reading) { again = true; return; }
    reading = read().catch(() => finish()).finally(() => {
      reading = undefined;
      if (again) { again = false; check(); }
    });
  };
  const events = queueEvents(deps.m);
  const timer = setInterval(check, STREAM_POLL_MS);
  // Events that name their project wake only its streams; the others (queued, retried, …) wake all.
  const onEvent = (e: { projectId?: string }) => { if (!e.projectId || watched.has(e.projectId)) check(); };
  for (const n of EVENT_NAMES) events.on(n, onEvent);
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((resolve) => { resolveDone = resolve; });
  function finish() {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    for (const n of EVENT_NAMES) events.off(n, onEvent);
    res.end();
    resolveDone();
  }
  res.on('close', finish);
  check();
  await done;
}
