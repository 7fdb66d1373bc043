/**
 * The capability in a preview URL (`/editor-preview/<token>/…`): project, member and expiry,
 * signed with an HMAC of the platform's own secret (secrets/server-secret.ts). Whoever holds the
 * URL sees the project's drafts until it expires, with no cookie: the preview is served from an
 * opaque origin (sandboxed), where cookies are never sent. Forged, altered or expired: no project.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Models } from '../../db/models/index.ts';
import { serverSecret } from '../../secrets/server-secret.ts';

/** A token is valid for one to two hours: the same token for a whole clock hour, so the preview's URL (and the frame) stays put while someone types. */
const HOUR_MS = 3_600_000;

export interface PreviewGrant { projectId: string; userId: string; expiresAt: Date }

const sign = (secret: Buffer, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

/** The token for `projectId` and `userId` at `now`. */
export async function previewToken(m: Models, projectId: string, userId: string, now: Date): Promise<string> {
  const exp = Math.ceil(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS;
  const payload = Buffer.from(JSON.stringify([projectId, userId, exp])).toString('base64url');
  return `${payload}.${sign(await serverSecret(m, 'editor-preview'), payload)}`;
}

/** What a token grants, or undefined when it is forged, malformed or expired. */
export async function readPreviewToken(m: Models, token: string, now: Date): Promise<PreviewGrant | undefined> {
  const [payload, mac, ...rest] = token.split('.');
  if (!payload || !mac || rest.length > 0 || mac.length > 64) return undefined;
  const expected = Buffer.from(sign(await serverSecret(m, 'editor-preview'), payload));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const [projectId, userId, exp] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [unknown, unknown, unknown];
    if (typeof projectId !== 'string' || typeof userId !== 'string' || typeof exp !== 'number') return undefined;
    if (exp <= now.getTime()) return undefined;
    return { projectId, userId, expiresAt: new Date(exp) };
  } catch {
    return undefined;
  }
}
