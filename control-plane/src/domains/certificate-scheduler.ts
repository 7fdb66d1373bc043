/**
 * Orders and renews the certificates of verified custom domains. Each check:
 *
 * 1. gives every verified domain a certificate record (`pending`) and drops the records of
 *    hostnames that are no longer a verified domain of the same project;
 * 2. claims due records one at a time with a lease in the database (`lease_owner`,
 *    `lease_until`), so of several replicas exactly one orders a given certificate: a pending
 *    or failed one whose `next_attempt_at` has come, or an issued one expiring within
 *    ACME_RENEW_WITHIN_DAYS (it reads `renewing` meanwhile and keeps being served);
 * 3. orders it (acme-order.ts) and stores the outcome, but only while it still holds the lease:
 *    a certificate, or the reason of the failure and the time of the next attempt (backoff from
 *    5 minutes, doubling, at most a day).
 */
import { randomUUID } from 'node:crypto';
import type { Models } from '../db/models/index.ts';
import type { Certificate } from '../db/models/certificate.ts';
import type { Env } from '../env.ts';
import { AppError } from '../errors.ts';
import { sealSecret } from '../secrets/secret-box.ts';
import { acmeClientFor } from './acme-account.ts';
import { orderCertificate } from './acme-order.ts';
import { failureReason } from './failure-reason.ts';

/** The purpose certificate keys are sealed for (secrets/secret-box.ts). */
export const CERT_KEY_PURPOSE = 'certificate-key';
/** How long a claim on a record holds: an order takes seconds; a crashed replica's claim lapses after this. */
export const LEASE_MS = 10 * 60_000;
const FIRST_BACKOFF_MS = 5 * 60_000;
const MAX_BACKOFF_MS = 24 * 3600_000;
/** At most this many orders per check, so one check ends; the next takes the rest. */
const ORDERS_PER_CHECK = 20;
const DAY_MS = 24 * 3600_000;

/** When a record that failed `attempts` times in a row is tried again. */
export function nextAttemptAfter(now: Date, attempts: number): Date {
  return new Date(now.getTime() + Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1)));
}

export interface CertificateSchedulerOptions {
  m: Models;
  env: Pick<Env, 'ACME_DIRECTORY_URL' | 'ACME_CONTACT_EMAIL' | 'ACME_DIRECTORY_CA' | 'ACME_RENEW_WITHIN_DAYS' | 'ACME_CHECK_INTERVAL_MS'>;
  now: () => Date;
  /** Called once a host's certificate changed (the site server forgets what it cached). */
  onChange?(hostname: string): void;
  /** Failures of the check itself (the database unreachable); an order's failure is recorded on its record instead. */
  onError?(err: unknown): void;
  /** This process's name in leases; default a random id. */
  owner?: string;
}

export interface CheckResult { issued: string[]; failed: string[] }

export interface CertificateScheduler {
  /** One check at `now` (default the clock's): what was issued and what failed. */
  check(now?: Date): Promise<CheckResult>;
  /** Runs a check soon (a domain was just verified); checks asked for while one runs become one more. */
  kick(): void;
  /** Checks every ACME_CHECK_INTERVAL_MS from now on, the first at once. */
  start(): void;
  /** Stops checking and waits for a running check to end. */
  stop(): Promise<void>;
}

/** Step 1: a record for every verified domain; none for anything else. */
async function syncWithDomains(m: Models, now: Date): Promise<void> {
  const verified = await m.Domain.find({ status: 'verified' }, { hostname: 1, project_id: 1, org_id: 1 }).lean();
  const records = await m.Certificate.find({}, { project_id: 1 }).lean();
  const projectOf = new Map(records.map((r) => [r._id, r.project_id]));
  for (const d of verified) {
    if (projectOf.get(d.hostname) === d.project_id) continue;
    // A record left by a project the hostname no longer belongs to is replaced, never reused.
    if (projectOf.has(d.hostname)) await m.Certificate.deleteOne({ _id: d.hostname, project_id: projectOf.get(d.hostname) });
    await m.Certificate.updateOne({ _id: d.hostname }, { $setOnInsert: { project_id: d.project_id, org_id: d.org_id, status: 'pending', next_attempt_at: now, created_at: now } }, { upsert: true });
  }
  const live = new Set(verified.map((d) => `${d.hostname} ${d.project_id}`));
  const stale = records.filter((r) => !live.has(`${r._id} ${r.project_id}`)).map((r) => r._id);
  if (stale.length > 0) await m.Certificate.deleteMany({ _id: { $in: stale } });
}

/** Step 2: one due record not in `done`, claimed for `owner`; undefined when none is due. */
async function claimDue(m: Models, owner: string, now: Date, renewWithinDays: number, done: string[]): Promise<Certificate | undefined> {
  const due: Record<string, unknown> = {
    // Each record once per check: one just renewed may still count as due at a `now` far ahead.
    _id: { $nin: done },
    $and: [
      { $or: [
        { status: { $in: ['pending', 'failed'] }, next_attempt_at: { $lte: now } },
        { status: 'issued', not_after: { $lte: new Date(now.getTime() + renewWithinDays * DAY_MS) } },
        // A replica that crashed mid-order left this; its lease has lapsed (the filter below).
        { status: 'renewing' },
      ] },
      { $or: [{ lease_until: null }, { lease_until: { $lt: now } }] },
    ],
  };
  const claimed = await m.Certificate.findOneAndUpdate(due, { $set: { lease_owner: owner, lease_until: new Date(now.getTime() + LEASE_MS) } }, { returnDocument: 'after', sort: { next_attempt_at: 1, not_after: 1 } }).lean<Certificate>();
  if (!claimed) return undefined;
  if (claimed.cert_pem && claimed.status === 'issued') await m.Certificate.updateOne({ _id: claimed._id, lease_owner: owner }, { $set: { status: 'renewing' } });
  return claimed;
}

export function certificateScheduler(opts: CertificateSchedulerOptions): CertificateScheduler {
  const { m, env } = opts;
  const owner = opts.owner ?? randomUUID();
  let running: Promise<CheckResult> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  /** Step 3 for one claimed record. */
  async function order(record: Certificate, now: Date, result: CheckResult): Promise<void> {
    const mine = { _id: record._id, lease_owner: owner };
    const release = { lease_owner: null, lease_until: null };
    // The guard that matters: a hostname no longer verified for this project gets no order.
    if (!await m.Domain.exists({ hostname: record._id, project_id: record.project_id, status: 'verified' })) {
      await m.Certificate.deleteOne(mine);
      opts.onChange?.(record._id);
      return;
    }
    try {
      const client = await acmeClientFor(m, env);
      const cert = await orderCertificate(m, client, record._id, opts.now);
      const stored = await m.Certificate.updateOne(mine, { $set: {
        status: 'issued', cert_pem: cert.certPem, key_sealed: await sealSecret(m, CERT_KEY_PURPOSE, cert.keyPem), serial: cert.serial,
        not_before: cert.notBefore, not_after: cert.notAfter, issued_at: opts.now(), last_error: null, failed_at: null, attempts: 0, next_attempt_at: null, ...release,
      } });
      if (stored.matchedCount === 1) result.issued.push(record._id);
    } catch (err) {
      const reason = err instanceof AppError && err.code === 'certificate_order_failed' ? err.message
        : err instanceof AppError && err.code === 'acme_unreachable' ? failureReason(record._id, undefined)
          : 'The certificate could not be obtained because of an error on the platform. The order will be tried again later.';
      if (!(err instanceof AppError)) opts.onError?.(err);
      const attempts = (record.attempts ?? 0) + 1;
      const stored = await m.Certificate.updateOne(mine, { $set: {
        status: 'failed', last_error: reason, failed_at: now, attempts, next_attempt_at: nextAttemptAfter(now, attempts), ...release,
      } });
      if (stored.matchedCount === 1) result.failed.push(record._id);
    }
    opts.onChange?.(record._id);
  }

  async function check(now = opts.now()): Promise<CheckResult> {
    const result: CheckResult = { issued: [], failed: [] };
    await syncWithDomains(m, now);
    const done: string[] = [];
    for (let i = 0; i < ORDERS_PER_CHECK; i++) {
      const record = await claimDue(m, owner, now, env.ACME_RENEW_WITHIN_DAYS, done);
      if (!record) break;
      done.push(record._id);
      await order(record, now, result);
    }
    return result;
  }

  function kick(): void {
    if (stopped) return;
    if (running) { again = true; return; }
    running = check().catch((err) => { opts.onError?.(err); return { issued: [], failed: [] }; }).finally(() => {
      running = undefined;
      if (again) { again = false; kick(); }
    });
  }

  return {
    check,
    kick,
    start() {
      kick();
      timer = setInterval(kick, env.ACME_CHECK_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
