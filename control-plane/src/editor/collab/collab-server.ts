/**
 * The web editor's real-time collaboration socket: a Hocuspocus server (Yjs over WebSocket) with
 * no port of its own, reached through the control plane's HTTP server at exactly
 * `GET /dashboard/api/projects/:id/editor/collab` (a WebSocket upgrade). Any other upgrade is
 * answered by the ordinary routes, as before: nothing else upgrades.
 *
 * - The upgrade is checked like a dashboard write (dashboard/editor-collab-access.ts, given as `rules`); a refusal is an HTTP answer with the
 *   dashboard's `{ error, message }` body.
 * - One Hocuspocus instance per project, so a document name is a file path of that project only.
 *   Document names are file paths (document-path.ts) or the project's presence channel.
 * - On plans without `multi_user_collaboration`, one person writes a file at a time: whoever
 *   opens it first; others get it read-only (Hocuspocus `readOnly`: their updates are not
 *   applied) and learn who is editing from a status message, and the next one in line becomes the
 *   writer when that person leaves.
 * - Access is checked again at most every {@link RECHECK_MS} on each message and every
 *   {@link RECHECK_MS} for idle sockets: a removed member, a changed role or an ended session is
 *   cut off.
 * - Persistence, the draft mirror and resets on draft changes: shared-file.ts.
 * - One process serves a document at a time: a lease in its `editor_documents` record, renewed
 *   while the document is open; another process refuses the document while the lease holds
 *   (README.md, "Several control-plane processes").
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { Hocuspocus, type Connection, type Document } from '@hocuspocus/server';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Deps } from '../../http/route.ts';
import { AppError } from '../../errors.ts';
import { onDraftChange } from '../drafts.ts';
import { documentPathProblem, PRESENCE_DOCUMENT } from './document-path.ts';
import { SharedFile } from './shared-file.ts';

/** How stale a socket's access check may be when it sends a message, and how often idle ones are checked. */
export const RECHECK_MS = 5_000;
/** How long a process's claim on a document holds without renewal (renewed every third of it). */
export const LEASE_MS = 15_000;
/** Largest WebSocket message (a whole 1 MB page as a Yjs update, with room). */
const MAX_PAYLOAD = 8 * 1024 * 1024;

/** What the server tells each connection of a file (a Hocuspocus stateless message, JSON). */
export interface CollabStatus { type: 'status'; readOnly: boolean; editingBy: string[] }

/** What an accepted upgrade knows about the person on the other end. */
export interface CollabAccess {
  /** The session token (kept to check the session again while the socket is open). */
  token: string;
  userId: string;
  orgId: string;
  projectId: string;
  name: string;
  email: string;
  /** The organization's plan has `multi_user_collaboration`. */
  collaboration: boolean;
}

/** Who may open a socket, and whether they still may: the dashboard's session and permission rules. */
export interface CollabAccessRules {
  /** The project id of a collaboration socket's URL, or undefined for any other path. */
  projectIdOf(url: string | undefined): string | undefined;
  authorizeUpgrade(deps: Deps, req: http.IncomingMessage, projectId: string): Promise<CollabAccess>;
  checkAccess(deps: Deps, token: string | undefined, projectId: string): Promise<CollabAccess>;
}

interface Socket { ws: WebSocket; access: CollabAccess; checkedAt: number; checking?: Promise<void> }
interface Slot { connId: string; access: CollabAccess; readOnly: boolean; since: number; connection?: Connection }

interface ProjectCollab {
  hocuspocus: Hocuspocus;
  files: Map<string, SharedFile>;
  /** Per document: the connections that passed authentication, by connection id. */
  slots: Map<string, Map<string, Slot>>;
}

export interface EditorCollab {
  /** Open documents and connections (benchmarks, tests). */
  stats(): { documents: number; connections: number };
  /** Stores every open document, releases their leases and closes the sockets. */
  close(): Promise<void>;
}

/** The refusal reason sent to the provider (`onAuthenticationFailed`): the dashboard's error body as JSON. */
function refusal(error: string, message: string): { reason: string } {
  return { reason: JSON.stringify({ error, message }) };
}

function bodyOf(err: unknown): { status: number; body: Record<string, unknown> } {
  if (err instanceof AppError) return { status: err.status, body: { error: err.code, message: err.message, ...(err.extra ?? {}) } };
  return { status: 500, body: { error: 'internal', message: 'Internal error' } };
}

/** Answers a refused upgrade over HTTP and closes the socket. */
function refuseUpgrade(socket: Duplex, err: unknown): void {
  const { status, body } = bodyOf(err);
  const text = JSON.stringify(body);
  if (!socket.writable) { socket.destroy(); return; }
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}

/** Hands an upgrade of another path to the ordinary request handler, which answers it as before (no upgrade). */
function answerAsRequest(req: http.IncomingMessage, socket: Duplex, head: Buffer, requestListener: http.RequestListener): void {
  if (head.length > 0) socket.unshift(head);
  const res = new http.ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as import('node:net').Socket);
  res.on('finish', () => { res.detachSocket(socket as import('node:net').Socket); socket.end(); });
  requestListener(req, res);
}

/** The Yjs update inside a Hocuspocus sync message (step 2 or update), else undefined. */
export function syncUpdateOf(data: Uint8Array): Uint8Array | undefined {
  let pos = 0;
  const uint = (): number => {
    let n = 0; let mult = 1;
    for (;;) {
      if (pos >= data.length) throw new Error('truncated');
      const byte = data[pos++]!;
      n += (byte & 0x7f) * mult;
      if (byte < 0x80) return n;
      mult *= 128;
      if (mult > 2 ** 49) throw new Error('varint too long');
    }
  };
  try {
    const nameLength = uint();
    pos += nameLength;
    const type = uint();
    if (type !== 0 && type !== 4) return undefined; // Sync, SyncReply
    const step = uint();
    if (step !== 1 && step !== 2) return undefined; // SyncStep2, Update
    const length = uint();
    if (pos + length > data.length) return undefined;
    return data.subarray(pos, pos + length);
  } catch {
    return undefined;
  }
}

/**
 * Attaches the collaboration socket to `server` (the control plane's API server);
 * `requestListener` is the server's own handler, which still answers every other upgrade.
 */
export function attachEditorCollab(server: http.Server, deps: Deps, requestListener: http.RequestListener, rules: CollabAccessRules): EditorCollab {
  // With the embedded database one process owns the data (connect.ts refuses a second), so its
  // restart takes its own leases back at once; with MONGODB_URI each process is its own claimant.
  const replicaId = deps.env.MONGODB_URI ? randomUUID() : 'embedded';
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });
  const projects = new Map<string, ProjectCollab>();
  const sockets = new Map<string, Socket>();
  let closing = false;

  const log = (message: string, err?: unknown) => { if (process.env.FOLIO_TEST_LOG) console.error(`collab: ${message}`, err ?? ''); };

  /**
   * Checks a socket's access again (at most every RECHECK_MS unless `force`). When it is gone, the
   * socket is closed with 4403 and false is returned (the message at hand is not applied).
   */
  async function stillAllowed(connId: string, force = false): Promise<boolean> {
    const s = sockets.get(connId);
    if (!s) return false;
    if (!force && Date.now() - s.checkedAt < RECHECK_MS) return true;
    s.checking ??= rules.checkAccess(deps, s.access.token, s.access.projectId).then((access) => {
      s.access = access;
      s.checkedAt = Date.now();
    }).finally(() => { s.checking = undefined; });
    try {
      await s.checking;
      return true;
    } catch (err) {
      const { body } = bodyOf(err);
      s.ws.close(4403, String(body.error).slice(0, 100));
      return false;
    }
  }

  function statusFor(slots: Map<string, Slot>, slot: Slot): CollabStatus {
    const others = new Map<string, string>();
    for (const other of slots.values()) if (!other.readOnly && other.access.userId !== slot.access.userId) others.set(other.access.userId, other.access.name);
    return { type: 'status', readOnly: slot.readOnly, editingBy: [...others.values()] };
  }

  function broadcastStatus(p: ProjectCollab, documentName: string): void {
    const slots = p.slots.get(documentName);
    if (!slots || documentName === PRESENCE_DOCUMENT) return;
    for (const slot of slots.values()) {
      try { slot.connection?.sendStateless(JSON.stringify(statusFor(slots, slot))); } catch { /* closing */ }
    }
  }

  /** Removes a connection's slot; on a single-writer plan, the next person in line becomes the writer. */
  function leave(p: ProjectCollab, documentName: string, connId: string): void {
    const slots = p.slots.get(documentName);
    if (!slots || !slots.delete(connId)) return;
    if (slots.size === 0) { p.slots.delete(documentName); return; }
    if (documentName !== PRESENCE_DOCUMENT && ![...slots.values()].some((s) => !s.readOnly)) {
      const next = [...slots.values()].sort((a, b) => a.since - b.since)[0]!;
      for (const s of slots.values()) {
        if (s.access.userId !== next.access.userId) continue;
        s.readOnly = false;
        if (s.connection) s.connection.readOnly = false;
      }
    }
    broadcastStatus(p, documentName);
  }

  async function acquireLease(projectId: string, path: string): Promise<boolean> {
    const now = deps.now();
    try {
      await deps.m.EditorDocument.updateOne(
        { project_id: projectId, path, $or: [{ lease_owner: null }, { lease_owner: replicaId }, { lease_until: { $lt: now } }] },
        { $set: { lease_owner: replicaId, lease_until: new Date(now.getTime() + LEASE_MS) }, $setOnInsert: { created_at: now, updated_at: now } },
        { upsert: true },
      );
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 11000) return false;
      throw err;
    }
  }

  function releaseLease(projectId: string, path: string): Promise<unknown> {
    return deps.m.EditorDocument.updateOne({ project_id: projectId, path, lease_owner: replicaId }, { $set: { lease_owner: null, lease_until: null } }).catch((err) => log('lease release failed', err));
  }

  function projectCollab(projectId: string): ProjectCollab {
    const existing = projects.get(projectId);
    if (existing) return existing;
    const p: ProjectCollab = { files: new Map(), slots: new Map(), hocuspocus: undefined as unknown as Hocuspocus };
    p.hocuspocus = new Hocuspocus({
      name: `folio-collab-${projectId}`,
      quiet: true,
      debounce: 1_000,
      maxDebounce: 5_000,
      timeout: 30_000,
      async onAuthenticate({ documentName, context, connectionConfig }) {
        const connId = context.connId as string;
        if (!await stillAllowed(connId)) throw refusal('forbidden', 'Access to this project ended');
        const access = sockets.get(connId)!.access;
        let readOnly = true;
        if (documentName !== PRESENCE_DOCUMENT) {
          const problem = documentPathProblem(documentName);
          if (problem) throw refusal('invalid_path', problem);
          if (!await acquireLease(projectId, documentName)) throw refusal('collab_elsewhere', 'Another control-plane process serves this document now; reconnect to reach it');
          const slots = p.slots.get(documentName);
          const otherWriter = [...(slots?.values() ?? [])].some((s) => !s.readOnly && s.access.userId !== access.userId);
          readOnly = !access.collaboration && otherWriter;
        }
        connectionConfig.readOnly = readOnly;
        let slots = p.slots.get(documentName);
        if (!slots) p.slots.set(documentName, slots = new Map());
        slots.set(connId, { connId, access, readOnly, since: Date.now() });
        return { userId: access.userId };
      },
      async connected({ documentName, context, connection }) {
        const slot = p.slots.get(documentName)?.get(context.connId as string);
        if (!slot) { connection.close(); return; }
        slot.connection = connection;
        connection.readOnly = slot.readOnly;
        broadcastStatus(p, documentName);
      },
      async onLoadDocument({ documentName, document }) {
        if (documentName === PRESENCE_DOCUMENT) return;
        const file = new SharedFile(deps, projectId, documentName, document as Document);
        await file.load();
        p.files.set(documentName, file);
      },
      async beforeHandleMessage({ connection, update, documentName, context }) {
        if (!await stillAllowed(context.connId as string)) {
          // Cut off: the socket is closing; this message is not applied.
          connection.readOnly = true;
          return;
        }
        if (connection.readOnly || documentName === PRESENCE_DOCUMENT) return;
        const file = p.files.get(documentName);
        const data = syncUpdateOf(update);
        if (file && data) await file.log(data, sockets.get(context.connId as string)?.access.userId ?? '');
      },
      async onStoreDocument({ documentName }) {
        const file = p.files.get(documentName);
        if (!file || closing) return;
        await file.store().catch((err) => log(`storing ${documentName} failed`, err));
      },
      async onDisconnect({ documentName, context }) {
        leave(p, documentName, context.connId as string);
      },
      async afterUnloadDocument({ documentName }) {
        if (documentName === PRESENCE_DOCUMENT) return;
        p.files.delete(documentName);
        if (!closing) await releaseLease(projectId, documentName);
        if (p.hocuspocus.getDocumentsCount() === 0 && p.slots.size === 0) projects.delete(projectId);
      },
    });
    projects.set(projectId, p);
    return p;
  }

  const stopDraftListener = onDraftChange((projectId, path) => {
    const file = projects.get(projectId)?.files.get(path);
    if (file) void file.draftChanged().catch((err) => log(`refreshing ${path} from its draft failed`, err));
  });

  // Idle sockets are checked too; the leases of open documents are renewed.
  const timer = setInterval(() => {
    for (const connId of sockets.keys()) void stillAllowed(connId).catch(() => undefined);
    for (const [projectId, p] of projects) {
      for (const path of p.files.keys()) {
        void acquireLease(projectId, path).then((held) => {
          if (!held) p.hocuspocus.closeConnections(path);
        }).catch((err) => log('lease renewal failed', err));
      }
    }
  }, Math.min(RECHECK_MS, LEASE_MS / 3));
  timer.unref();

  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const projectId = rules.projectIdOf(req.url);
    if (!projectId || closing) { answerAsRequest(req, socket, head, requestListener); return; }
    socket.on('error', () => socket.destroy());
    rules.authorizeUpgrade(deps, req, projectId).then((access) => {
      if (closing) { socket.destroy(); return; }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const connId = randomUUID();
        sockets.set(connId, { ws, access, checkedAt: Date.now() });
        ws.once('close', () => {
          sockets.delete(connId);
          const p = projects.get(projectId);
          if (p) for (const name of [...p.slots.keys()]) leave(p, name, connId);
        });
        projectCollab(projectId).hocuspocus.handleConnection(ws, req, { connId });
      });
    }, (err) => {
      if (!(err instanceof AppError)) log('upgrade check failed', err);
      refuseUpgrade(socket, err);
    });
  };
  server.on('upgrade', onUpgrade);

  return {
    stats() {
      let documents = 0;
      for (const p of projects.values()) documents += p.files.size;
      return { documents, connections: sockets.size };
    },
    async close() {
      closing = true;
      server.off('upgrade', onUpgrade);
      clearInterval(timer);
      stopDraftListener();
      for (const [projectId, p] of projects) {
        for (const [path, file] of p.files) {
          await file.store().catch((err) => log(`storing ${path} on close failed`, err));
          await releaseLease(projectId, path);
        }
      }
      for (const s of sockets.values()) s.ws.terminate();
      for (const p of projects.values()) p.hocuspocus.closeConnections();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
