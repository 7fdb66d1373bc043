import net from 'node:net';
import type { Document } from 'bson';
import { runCommand } from './command-router.ts';
import { CursorStore } from './cursor-store.ts';
import type { Store } from './store.ts';
import { encodeOpMsg, encodeOpReply, OP_QUERY, parseMessage } from './wire.ts';

/** Called after a command that wrote; resolves once those writes are durable. */
export type Commit = () => Promise<void>;

/** Changes since start; a command that moved it wrote something and must wait for the journal. */
export interface WriteCounter {
  readonly written: number;
}

/**
 * The TCP side: frames messages per connection, runs each command synchronously against the
 * store, waits for durability when the command wrote, and replies in request order.
 */
export class WireServer {
  readonly server: net.Server;
  readonly cursors = new CursorStore();
  private readonly sockets = new Set<net.Socket>();
  private connectionIds = 0;
  private responseIds = 0;

  private readonly store: Store;
  private readonly counter: WriteCounter;
  private readonly commit: Commit;

  constructor(store: Store, counter: WriteCounter, commit: Commit) {
    this.store = store;
    this.counter = counter;
    this.commit = commit;
    this.server = net.createServer((socket) => this.accept(socket));
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as net.AddressInfo).port);
      });
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.cursors.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    const connectionId = ++this.connectionIds;
    this.sockets.add(socket);
    socket.setNoDelay(true);
    let pending = Buffer.alloc(0);
    // Replies must leave in request order even though durability waits are asynchronous.
    let queue: Promise<void> = Promise.resolve();
    socket.on('data', (chunk) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= 4) {
        const length = pending.readInt32LE(0);
        if (length < 16 || length > 64 * 1024 * 1024) {
          socket.destroy();
          return;
        }
        if (pending.length < length) break;
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        const reply = this.handle(message, connectionId);
        queue = queue.then(async () => {
          const out = await reply;
          if (out && !socket.destroyed) socket.write(out);
        }).catch(() => {
          // The write could not be made durable: the client must not take it as acknowledged.
          socket.destroy();
        });
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
  }

  /** Runs the command now (synchronously) and returns the encoded reply once it may be sent. */
  private async handle(message: Buffer, connectionId: number): Promise<Buffer | undefined> {
    let request;
    try {
      request = parseMessage(message);
    } catch {
      return undefined;
    }
    const before = this.counter.written;
    const reply: Document = runCommand(request.command, { store: this.store, cursors: this.cursors, db: request.db, connectionId });
    if (this.counter.written !== before) await this.commit();
    if (request.moreToCome) return undefined;
    const id = ++this.responseIds;
    return request.opCode === OP_QUERY ? encodeOpReply(reply, id, request.requestId) : encodeOpMsg(reply, id, request.requestId);
  }
}
