/**
 * Encrypts the few customer secrets the platform must be able to read back (an SSO
 * connection's OIDC client secret), with AES-256-GCM under a server secret of their own
 * purpose (server-secret.ts). A database dump without the `server_secrets` collection yields
 * nothing usable; the purpose is bound as additional data, so a value sealed for one purpose
 * does not open as another.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Models } from '../db/models/index.ts';
import { serverSecret } from './server-secret.ts';

const VERSION = 'v1';

/** Seals `plaintext` for `purpose`: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export async function sealSecret(m: Models, purpose: string, plaintext: string): Promise<string> {
  const key = await serverSecret(m, `secret-box:${purpose}`);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(purpose));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

/** Opens a value `sealSecret` made for `purpose`; throws when it was altered or sealed otherwise. */
export async function openSecret(m: Models, purpose: string, sealed: string): Promise<string> {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error(`Unexpected sealed value format; expected ${VERSION}.<iv>.<tag>.<data>`);
  const key = await serverSecret(m, `secret-box:${purpose}`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
