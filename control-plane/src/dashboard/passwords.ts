/**
 * Password hashing with scrypt from node:crypto (memory-hard, no native dependency). Stored as
 * `scrypt$<N>$<r>$<p>$<salt>$<hash>` (base64url), so the cost can rise later without breaking
 * existing hashes: verification reads the parameters from the stored string.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));

/** N=2^15, r=8, p=1: OWASP's scrypt recommendation (about 32 MB and tens of ms per hash). */
const COST = { N: 1 << 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
// 128 * N * r bytes is needed; node refuses above maxmem (32 MB by default), so allow twice that.
const maxmem = (N: number, r: number) => 256 * N * r;

/** Hashes a password with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...COST, maxmem: maxmem(COST.N, COST.r) });
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash of no password, checked when the account is unknown so both answers take as long. */
let decoy: Promise<string> | undefined;

/**
 * True when `password` matches `stored`. A missing or malformed hash compares against a decoy
 * and answers false, so timing does not tell whether an account exists. Routes never call it:
 * a user's password is checked only through `SignInLimits.checkPassword` (sign-in-limits.ts),
 * which reserves a rate-limit slot first.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = stored?.split('$') ?? [];
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    await verifyPassword(password, await (decoy ??= hashPassword(randomBytes(16).toString('hex'))));
    return false;
  }
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const expected = Buffer.from(parts[5], 'base64url');
  const key = await scrypt(password.normalize('NFKC'), Buffer.from(parts[4], 'base64url'), expected.length, { N, r, p, maxmem: maxmem(N, r) });
  return timingSafeEqual(key, expected);
}
