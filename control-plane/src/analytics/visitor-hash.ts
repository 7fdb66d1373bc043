/**
 * Unique visitors without cookies or stored addresses, the way privacy-first analytics products
 * count them: `visitor = sha256(daily salt, project, IP, User-Agent)`, truncated. The salt is
 * random, one per UTC day, shared by every control-plane process through the database, and
 * deleted two days after its day ends, after which nobody (us included) can link a hash back to
 * an address or link a visitor's days together. A visitor therefore counts once per day; a
 * range longer than a day counts a returning visitor once per day they came.
 */
import { hash, randomBytes } from 'node:crypto';
import type { Models } from '../db/models/index.ts';

const DAY_MS = 86_400_000;
/** How long a day's salt outlives its day (late CDN logs of the previous day still match). */
const SALT_GRACE_MS = 2 * DAY_MS;

/** The UTC day of an instant, `YYYY-MM-DD`. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** Daily salts, read once per process per day and created on first use. */
export class SaltStore {
  private readonly cache = new Map<string, Promise<string>>();

  private readonly m: Models;

  constructor(m: Models) {
    this.m = m;
  }

  /** The salt of the UTC day `day` (`YYYY-MM-DD`). */
  salt(day: string): Promise<string> {
    let hit = this.cache.get(day);
    if (!hit) {
      hit = this.load(day);
      hit.catch(() => this.cache.delete(day));
      if (this.cache.size > 8) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(day, hit);
    }
    return hit;
  }

  private async load(day: string): Promise<string> {
    const expires = new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS + SALT_GRACE_MS);
    // $setOnInsert: every process that races here ends up with the one salt that won.
    const doc = await this.m.AnalyticsSalt.findOneAndUpdate(
      { _id: day },
      { $setOnInsert: { salt: randomBytes(32).toString('base64url'), expires_at: expires } },
      { upsert: true, returnDocument: 'after', lean: true },
    );
    return doc!.salt;
  }
}

/**
 * The visitor id of one request: 22 base64url characters (128 bits) of the salted hash. One-shot
 * `crypto.hash` (the same digest as `createHash().update().digest()`): ingestion hashes every
 * event, and the one-shot form makes no Hash object per call.
 */
export function visitorHash(salt: string, projectId: string, ip: string, userAgent: string): string {
  return hash('sha256', `${salt}\n${projectId}\n${ip}\n${userAgent}`, 'base64url').slice(0, 22);
}
