/**
 * Sign-in rate limits, kept in the database so every control-plane process shares them.
 *
 * Every password check first reserves a slot, atomically, under two keys: the email and the
 * client address. A key holds at most `limit` slots over a sliding window; when either is full
 * the attempt is `429 rate_limited` with Retry-After (until the key's oldest slot leaves the
 * window) and the password is not checked at all, right or wrong. Reserving before the (slow,
 * asynchronous) scrypt check is what makes a burst of concurrent guesses count: each one takes a
 * slot or is refused, however many arrive at once.
 *
 * What a success gives back: its own slots, under both keys, never the earlier failures. So each
 * key counts failed checks plus checks in flight: however a burst is timed, at most `limit` wrong
 * passwords are checked per window for one email (the bound that matters: the right password
 * needs no guessing), while the owner can sign in as often as they like on several devices.
 * Interleaving guesses with the owner's sign-ins gains nothing, since a success frees only the
 * slot it took itself.
 *
 * Storage: one `sign_in_attempts` document per key (`_id` is the SHA-256 of `e:<email>` or
 * `i:<address>`, so no address is stored in clear) holding at most `limit` slots; a conditional
 * `findOneAndUpdate` (`slots.<limit-1>` absent → `$push`) is the atomic reservation, on the
 * embedded server and on MongoDB alike. A TTL index drops a key once its newest slot expires.
 */
import { randomUUID } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import type { Models } from '../db/models/index.ts';
import { AppError } from '../errors.ts';
import { verifyPassword } from './passwords.ts';
import { tokenHash } from './tokens.ts';

export interface SignInLimitOptions {
  /** Failed (or in-flight) sign-in attempts one email may have per window. Default 5. */
  perEmail: number;
  /** Failed attempts one client address may have per window (all emails together). Default 20. */
  perIp: number;
  /** The sliding window, in ms. Default 15 minutes. */
  windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimitOptions = { perEmail: 5, perIp: 20, windowMs: 15 * 60_000 };

interface Slot { id: string; at: Date }
interface AttemptKey { _id: string; slots: Slot[]; expires_at: Date }

const attemptKeySchema = new Schema<AttemptKey>({
  _id: { type: String, required: true },
  slots: [{ _id: false, id: { type: String, required: true }, at: { type: Date, required: true } }],
  expires_at: { type: Date, required: true },
}, { versionKey: false });
attemptKeySchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

const bound = new WeakMap<Connection, Model<AttemptKey>>();

/**
 * The model on the connection the other models use. Registered here rather than in
 * db/models/index.ts so the limits stay one module; its TTL index is created on first use.
 */
function attemptModel(m: Models): Model<AttemptKey> {
  const connection = m.User.db;
  let model = bound.get(connection);
  if (!model) {
    model = connection.model<AttemptKey>('SignInAttempt', attemptKeySchema, 'sign_in_attempts');
    bound.set(connection, model);
    // Only the clean-up of idle keys depends on it: a failure must not stop sign-in.
    void model.createIndexes().catch(() => undefined);
  }
  return model;
}

type KeyKind = 'email' | 'ip';

const MESSAGES: Record<KeyKind, string> = {
  email: 'Too many sign-in attempts for this email',
  ip: 'Too many failed sign-in attempts from this address',
};

/** The rate limits every password check goes through; see the module comment. */
export class SignInLimits {
  readonly opts: SignInLimitOptions;
  readonly #model: Model<AttemptKey>;

  constructor(m: Models, opts: Partial<SignInLimitOptions> = {}) {
    this.opts = { ...DEFAULT_SIGN_IN_LIMITS, ...opts };
    this.#model = attemptModel(m);
  }

  /**
   * True when `password` matches `storedHash`, checked only after a slot was reserved for
   * `email` and `ip`; throws 429 `rate_limited` (nothing checked) when either key is full.
   * The only way the dashboard checks a user's password.
   */
  async checkPassword(input: { email: string; ip: string; now: Date; password: string; storedHash: string | null | undefined }): Promise<boolean> {
    const { email, ip, now } = input;
    const id = randomUUID();
    const emailKey = tokenHash(`e:${email}`);
    const ipKey = tokenHash(`i:${ip}`);
    await this.#reserve(emailKey, this.opts.perEmail, id, now, 'email');
    try {
      await this.#reserve(ipKey, this.opts.perIp, id, now, 'ip');
    } catch (err) {
      // Not checked: the email slot goes back.
      await this.#release(emailKey, id);
      throw err;
    }
    const ok = await verifyPassword(input.password, input.storedHash);
    if (ok) await Promise.all([this.#release(emailKey, id), this.#release(ipKey, id)]);
    return ok;
  }

  /** Takes one slot of `key` or throws 429 when its `limit` slots are all within the window. */
  async #reserve(key: string, limit: number, id: string, now: Date, kind: KeyKind): Promise<void> {
    const cutoff = new Date(now.getTime() - this.opts.windowMs);
    // Drop expired slots (and make sure the document exists); safe to run at any time.
    await this.#model.updateOne({ _id: key }, { $pull: { slots: { at: { $lte: cutoff } } }, $setOnInsert: { expires_at: now } }, { upsert: true })
      .catch((err: { code?: number }) => { if (err?.code !== 11000) throw err; });
    const taken = await this.#model.findOneAndUpdate(
      { _id: key, [`slots.${limit - 1}`]: { $exists: false } },
      { $push: { slots: { id, at: now } }, $max: { expires_at: new Date(now.getTime() + this.opts.windowMs) } },
      { returnDocument: 'after', projection: { _id: 1 } },
    ).lean();
    if (taken) return;
    const doc = await this.#model.findById(key, { slots: 1 }).lean();
    const oldest = Math.min(...(doc?.slots ?? []).map((s) => new Date(s.at).getTime()).filter((t) => t > cutoff.getTime()), now.getTime());
    const wait = Math.max(1, Math.ceil((oldest + this.opts.windowMs - now.getTime()) / 1000));
    throw new AppError(429, 'rate_limited', `${MESSAGES[kind]}; try again in ${wait} s`, { headers: { 'Retry-After': String(wait) } });
  }

  async #release(key: string, id: string): Promise<void> {
    await this.#model.updateOne({ _id: key }, { $pull: { slots: { id } } });
  }
}
