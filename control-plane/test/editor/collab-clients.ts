/**
 * Test helpers for the collaboration socket: real `@hocuspocus/provider` clients in Node over
 * `ws` (which lets a test send the cookie and Origin a browser would), sign-in against a real
 * platform, and raw upgrades to read a refusal's HTTP answer.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { hashPassword } from '../../src/dashboard/passwords.ts';
import type { Models } from '../../src/db/models/index.ts';
import type { Page } from 'playwright-core';

export const PASSWORD = 'correct horse battery staple';
let counter = 0;

export interface Member { userId: string; email: string; name: string; cookie: string; csrf: string }

/** A member of `orgId` with `role`, made in the database, signed in over HTTP at `origin`. */
export async function member(m: Models, origin: string, orgId: string, role = 'editor', name = `Writer ${++counter}`): Promise<Member> {
  const email = `collab-${process.pid}-${++counter}@example.com`;
  const user = await m.User.create({ email, name, password_hash: await hashPassword(PASSWORD), created_at: new Date() });
  await m.Membership.create({ org_id: orgId, user_id: user._id, role, created_at: new Date() });
  const res = await fetch(`${origin}/dashboard/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  const token = res.headers.getSetCookie().find((c) => c.startsWith('folio_session='))?.split(';')[0];
  const body = await res.json() as { csrf_token: string };
  if (res.status !== 200 || !token) throw new Error(`sign-in: ${res.status}`);
  return { userId: user._id, email, name, cookie: token, csrf: body.csrf_token };
}

/** The socket's URL for a project. */
export function collabUrl(origin: string, projectId: string): string {
  return `${origin.replace(/^http/, 'ws')}/dashboard/api/projects/${projectId}/editor/collab`;
}

/** A `ws` WebSocket class that sends `headers` on the handshake (as a browser sends its cookie and Origin). */
export function webSocketWith(headers: Record<string, string>): typeof WebSocket {
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) { super(url, protocols, { headers }); }
  } as typeof WebSocket;
}

export interface Client {
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
  doc: Y.Doc;
  text: Y.Text;
  /** The scope the server granted (`read-write` or `readonly`), or the refusal. */
  ready: Promise<{ scope: string } | { failed: string }>;
  statuses: { readOnly: boolean; editingBy: string[] }[];
  closed: Promise<number>;
  destroy(): void;
}

/** A provider client for `path`, with `headers` on the handshake. */
export function client(url: string, path: string, headers: Record<string, string>): Client {
  const doc = new Y.Doc();
  const statuses: Client['statuses'] = [];
  let closedResolve!: (code: number) => void;
  const closed = new Promise<number>((r) => { closedResolve = r; });
  const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: webSocketWith(headers), maxAttempts: 1, onClose: ({ event }) => closedResolve(event.code) });
  let readyResolve!: (v: { scope: string } | { failed: string }) => void;
  const ready = new Promise<{ scope: string } | { failed: string }>((r) => { readyResolve = r; });
  const provider = new HocuspocusProvider({
    websocketProvider: socket, name: path, document: doc, token: 'session',
    onAuthenticated: ({ scope }) => readyResolve({ scope }),
    onAuthenticationFailed: ({ reason }) => readyResolve({ failed: reason }),
    onStateless: ({ payload }) => { const msg = JSON.parse(payload); if (msg.type === 'status') statuses.push({ readOnly: msg.readOnly, editingBy: msg.editingBy }); },
  });
  // Test clients never reconnect on their own (a retry refused would be an unhandled rejection).
  socket.on('disconnect', () => { socket.shouldConnect = false; });
  provider.attach();
  return {
    provider, socket, doc, text: doc.getText('content'), ready, statuses, closed,
    destroy() { provider.destroy(); socket.destroy(); },
  };
}

/** Waits until `check()` holds (polling), or fails with `what`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A raw upgrade to the socket: the HTTP status and body of a refusal, or 101. */
export function rawUpgrade(url: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => { ws.close(); resolve({ status: 101, body: undefined }); });
    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try { body = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    ws.on('error', (err) => { if (!/Unexpected server response/.test(String(err))) reject(err); });
  });
}

/** The editor's text in a browser page, without the remote cursors' name labels (widgets inside the lines). */
export async function editorText(page: Page): Promise<string> {
  return page.locator('.cm-content').evaluate((el) => [...el.querySelectorAll('.cm-line')].map((l) => {
    const copy = l.cloneNode(true) as HTMLElement;
    for (const caret of copy.querySelectorAll('.cm-ySelectionCaret')) caret.remove();
    return (copy.textContent ?? '').replace(/\u2060/g, '');
  }).join('\n'));
}
