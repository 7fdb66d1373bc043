/** Random tokens for sessions, claims and invitations; only their SHA-256 is ever stored. */
import { createHash, randomBytes } from 'node:crypto';

/** A 256-bit random token, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of a token (and the key it is looked up by). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
