/**
 * Delivering outgoing webhook messages: `deliverDue` sends every message whose time has come
 * (the scheduler calls it on a timer and when an event is queued; tests call it with their own
 * clock). Rules:
 * - Paused while the organization's plan lacks `outgoing_webhooks` (read from the entitlement
 *   resolver on every run): messages stay `pending`, untouched, and go out once the plan has it
 *   again (quota rule 6). The retry window only starts at the first attempt.
 * - A 2xx answer delivers. Anything else (another status, a redirect, no answer within
 *   `TIMEOUT_MS`, an address that is no longer public) is logged in the message's attempts and
 *   retried with exponential backoff: 30 s, 1 min, 2 min, ... capped at 6 h, for 24 h after the
 *   first attempt; then the message is `failed`.
 * - Each message is held with a short lease while it is sent, so two schedulers (two control
 *   planes) never send it at once.
 * - Chat notifications (chat-notifications/) are messages too, `target: 'chat'`: the same
 *   queue, retries and address checks, sent unsigned to the channel's opened URL, and paused
 *   while the plan lacks `chat_notifications`.
 */
import http from 'node:http';
import https from 'node:https';
import type { Models, WebhookMessage } from '../db/models/index.ts';
import { chatChannelUrl } from './chat-target.ts';
import { hasFeature } from '../entitlements/resolver.ts';
import type { BooleanFeature } from '../entitlements/plans.ts';
import { checkedAddress, guardSocket, pinnedLookup, type ResolveHost } from '../outbound/safe-fetch.ts';
import { EVENT_HEADER, ID_HEADER, SIGNATURE_HEADER, signPayload, TIMESTAMP_HEADER } from './signature.ts';

export const RETRY_WINDOW_MS = 24 * 3600_000;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 6 * 3600_000;
const TIMEOUT_MS = 10_000;
const LEASE_MS = 60_000;
const BATCH = 50;

/** Delay before retry number `failures` (1 after the first failed attempt). */
export function retryDelayMs(failures: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1));
}

export interface DeliverOptions {
  m: Models;
  now: Date;
  /** `host:port` pairs exempt from the public-address check (tests, single-machine set-ups). */
  allowHosts?: readonly string[];
  /** How endpoint host names are resolved; default the system's resolver (tests: a DNS stand-in). */
  resolveHost?: ResolveHost;
}

/** How one attempt ended: the answer's status, or why there was none. */
export interface Attempt { status_code: number | null; error: string | null; duration_ms: number }

function post(url: URL, address: string, headers: Record<string, string>, body: string): Promise<number> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: 'POST', agent: false, lookup: pinnedLookup(address) as never, timeout: TIMEOUT_MS,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Folio-Webhooks/1' },
    }, (res) => {
      // Only the status matters; the body is drained, never stored.
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    // The connection goes to the address just checked (no second DNS question), and nothing is
    // written unless the peer is that address: a DNS answer that changes cannot redirect it.
    guardSocket(req, address);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * POSTs `body` once to `target` after the public-address check (again now: DNS can change),
 * with `headers` besides the JSON ones; never throws. Also the chat channels' test message.
 */
export async function postOnce(target: string, body: string, headers: Record<string, string>, opts: Pick<DeliverOptions, 'allowHosts' | 'resolveHost'>): Promise<Attempt> {
  const started = Date.now();
  try {
    const url = new URL(target);
    const address = await checkedAddress(url, 'url', opts.allowHosts, opts.resolveHost);
    const status = await post(url, address, headers, body);
    return { status_code: status, error: status >= 200 && status < 300 ? null : `HTTP ${status}`, duration_ms: Date.now() - started };
  } catch (err) {
    return { status_code: null, error: (err as Error).message.slice(0, 300), duration_ms: Date.now() - started };
  }
}

/** Where a message goes and how it is signed (chat messages are not: chat apps ignore signatures). */
interface Target { url: string; secret?: string }

async function targetOf(m: Models, msg: WebhookMessage): Promise<Target | undefined> {
  if (msg.target === 'chat') {
    const url = await chatChannelUrl(m, msg.endpoint_id);
    return url === undefined ? undefined : { url };
  }
  return (await m.WebhookEndpoint.findById(msg.endpoint_id, { url: 1, secret: 1 }).lean()) ?? undefined;
}

function attempt(msg: WebhookMessage, target: Target, opts: DeliverOptions): Promise<Attempt> {
  const timestamp = Math.floor(opts.now.getTime() / 1000);
  const headers: Record<string, string> = target.secret === undefined ? {} : {
    [ID_HEADER]: msg.event_key, [EVENT_HEADER]: msg.event, [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signPayload(target.secret, timestamp, msg.body),
  };
  return postOnce(target.url, msg.body, headers, opts);
}

async function planAllows(m: Models, msg: WebhookMessage, now: Date, cache: Map<string, boolean>): Promise<boolean> {
  const feature: BooleanFeature = msg.target === 'chat' ? 'chat_notifications' : 'outgoing_webhooks';
  const key = `${feature}\n${msg.org_id}`;
  let allowed = cache.get(key);
  if (allowed === undefined) {
    allowed = await hasFeature(m, msg.org_id, feature, now).catch(() => false);
    cache.set(key, allowed);
  }
  return allowed;
}

/** Sends every due message once (see the module comment); returns how many were attempted. */
export async function deliverDue(opts: DeliverOptions): Promise<number> {
  const { m, now } = opts;
  const due = await m.WebhookMessage.find({
    status: 'pending', next_attempt_at: { $lte: now },
    $or: [{ lease_until: null }, { lease_until: { $lt: now } }],
  }).sort({ next_attempt_at: 1, _id: 1 }).limit(BATCH).lean() as WebhookMessage[];
  const plans = new Map<string, boolean>();
  let attempted = 0;
  for (const msg of due) {
    if (!await planAllows(m, msg, now, plans)) continue;
    const held = await m.WebhookMessage.findOneAndUpdate(
      { _id: msg._id, status: 'pending', $or: [{ lease_until: null }, { lease_until: { $lt: now } }] },
      { $set: { lease_until: new Date(now.getTime() + LEASE_MS) } },
    ).lean();
    if (!held) continue;
    const target = await targetOf(m, msg);
    if (!target) { await m.WebhookMessage.deleteOne({ _id: msg._id }); continue; }
    const result = await attempt(msg, target, opts);
    attempted++;
    const first = msg.first_attempt_at ? new Date(msg.first_attempt_at) : now;
    const failures = (msg.attempts?.filter((a) => a.error !== null).length ?? 0) + 1;
    const next = new Date(now.getTime() + retryDelayMs(failures));
    const status = result.error === null ? 'delivered' : next.getTime() - first.getTime() > RETRY_WINDOW_MS ? 'failed' : 'pending';
    await m.WebhookMessage.updateOne({ _id: msg._id }, {
      $set: { status, first_attempt_at: first, next_attempt_at: status === 'pending' ? next : now, lease_until: null },
      $push: { attempts: { at: now, ...result } },
    });
  }
  return attempted;
}

/** Runs `deliverDue` every `intervalMs` and on `kick()`, one run at a time. */
export function startWebhookScheduler(opts: { m: Models; now(): Date; allowHosts?(): readonly string[] | undefined; intervalMs?: number; onError(err: unknown): void }): { kick(): void; stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const run = () => {
    if (stopped) return;
    if (running) { again = true; return; }
    running = deliverDue({ m: opts.m, now: opts.now(), allowHosts: opts.allowHosts?.() })
      .then(() => undefined, opts.onError)
      .finally(() => { running = undefined; if (again) { again = false; run(); } });
  };
  const timer = setInterval(run, opts.intervalMs ?? 5_000);
  timer.unref();
  return {
    kick: run,
    async stop() { stopped = true; clearInterval(timer); await running; },
  };
}
