/**
 * The `state` of a "Connect GitHub" install link: which organization and user asked, and until
 * when, signed with a key the platform keeps for this purpose (secrets/server-secret.ts). GitHub
 * hands it back on the setup redirect; the callback accepts it only from the same user in the
 * same organization before it expires, so a link cannot be replayed into another organization.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Models } from '../db/models/index.ts';
import { AppError } from '../errors.ts';
import { serverSecret } from '../secrets/server-secret.ts';

/** How long an install link may take from click to GitHub's redirect back. */
export const INSTALL_STATE_TTL_MS = 30 * 60_000;
const PURPOSE = 'github-install-state';

interface StatePayload { o: string; u: string; e: number; n: string }

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

/** A signed state for `orgId` and `userId`, valid {@link INSTALL_STATE_TTL_MS} from `now`. */
export async function signInstallState(m: Models, orgId: string, userId: string, now: Date): Promise<{ state: string; expiresAt: Date }> {
  const expiresAt = new Date(now.getTime() + INSTALL_STATE_TTL_MS);
  const payload = Buffer.from(JSON.stringify({ o: orgId, u: userId, e: expiresAt.getTime(), n: randomBytes(9).toString('base64url') } satisfies StatePayload)).toString('base64url');
  return { state: `${payload}.${mac(await serverSecret(m, PURPOSE), payload)}`, expiresAt };
}

/** 400 `invalid_state`. */
const invalidState = (why: string) => new AppError(400, 'invalid_state', `state: ${why}; start again from "Connect GitHub" in the dashboard`);

/** Checks a state from GitHub's redirect against the signed-in session; throws 400 `invalid_state` otherwise. */
export async function verifyInstallState(m: Models, state: string, session: { orgId: string; userId: string }, now: Date): Promise<void> {
  const [payload, sig, extra] = state.split('.');
  if (!payload || !sig || extra !== undefined) throw invalidState('Unexpected value; expected the state of an install link');
  const expected = Buffer.from(mac(await serverSecret(m, PURPOSE), payload));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidState('Unexpected signature; expected the state of an install link made by this server');
  let data: Partial<StatePayload>;
  try { data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')); } catch { throw invalidState('Unexpected value; expected the state of an install link'); }
  if (data.o !== session.orgId || data.u !== session.userId) throw invalidState('Unexpected link made for another user or organization; expected one made by you in this organization');
  if (typeof data.e !== 'number' || data.e <= now.getTime()) throw invalidState('The install link expired (they last 30 minutes)');
}
