import type { Document } from 'bson';
import type { CursorStore } from './cursor-store.ts';
import type { Store } from './store.ts';

/** What every command handler gets. */
export interface CommandContext {
  store: Store;
  cursors: CursorStore;
  /** Database the command targets (`$db`). */
  db: string;
  connectionId: number;
}

/**
 * A command handler. Handlers are synchronous on purpose: a command runs to completion before
 * any other starts, which is what makes findAndModify and conditional updates atomic.
 */
export type CommandHandler = (cmd: Document, ctx: CommandContext) => Document;
