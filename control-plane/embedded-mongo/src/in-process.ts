import { ObjectId, type Document } from 'bson';
import { runCommand } from './command-router.ts';
import type { CursorStore } from './cursor-store.ts';
import type { Store } from './store.ts';
import type { Commit, WriteCounter } from './wire-server.ts';

/**
 * Commands run by code in the process that hosts the embedded server, without the driver and the
 * wire: no BSON encoding on the way in or out, no socket, no decoding. Each command goes through
 * the same router and handlers as a wire command (same `_id`s, unique checks, index lookups,
 * update semantics and journal records), runs synchronously to completion like any other, and
 * resolves once what it wrote is durable, as the wire reply would.
 *
 * The server takes ownership of what it is given: documents, filters and updates become (part of)
 * stored documents, so the caller must not change them afterwards. A top-level `_id` made by
 * another copy of the BSON library (the driver's) is converted, since the server compares and
 * journals its own.
 */
export class InProcessCommands {
  private readonly store: Store;
  private readonly counter: WriteCounter;
  private readonly commit: Commit;
  private readonly cursors: CursorStore;

  /** `cursors`: the wire server's, so a find run here could be continued like any other. */
  constructor(store: Store, counter: WriteCounter, commit: Commit, cursors: CursorStore) {
    this.store = store;
    this.counter = counter;
    this.commit = commit;
    this.cursors = cursors;
  }

  /** Runs `cmd` against database `db`; the reply (`ok: 0` with `code` and `errmsg` on failure). */
  async command(db: string, cmd: Document): Promise<Document> {
    if (Array.isArray(cmd.documents)) for (const doc of cmd.documents as Document[]) adoptId(doc);
    const before = this.counter.written;
    const reply = runCommand(cmd, { store: this.store, cursors: this.cursors, db, connectionId: 0 });
    if (this.counter.written !== before) await this.commit();
    return reply;
  }
}

/** Swaps a foreign ObjectId `_id` (another BSON library's, same 12 bytes) for the server's own. */
function adoptId(doc: Document): void {
  const id = doc._id as { _bsontype?: string; id?: Uint8Array } | undefined;
  if (id && typeof id === 'object' && id._bsontype === 'ObjectId' && !(id instanceof ObjectId)) doc._id = new ObjectId(id.id!);
}
