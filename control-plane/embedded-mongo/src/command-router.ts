import type { Document } from 'bson';
import * as admin from './admin-commands.ts';
import type { CommandContext, CommandHandler } from './command-context.ts';
import { commandNotFound, toCommandError } from './errors.ts';
import * as read from './read-commands.ts';
import * as write from './write-commands.ts';

const handlers: Record<string, CommandHandler> = {
  hello: admin.hello,
  isMaster: admin.hello,
  ismaster: admin.hello,
  ping: admin.ping,
  buildInfo: admin.buildInfo,
  buildinfo: admin.buildInfo,
  endSessions: admin.acknowledge,
  abortTransaction: admin.acknowledge,
  commitTransaction: admin.acknowledge,
  listCollections: admin.listCollections,
  create: admin.create,
  drop: admin.drop,
  dropDatabase: admin.dropDatabase,
  listDatabases: admin.listDatabases,
  createIndexes: admin.createIndexes,
  listIndexes: admin.listIndexes,
  dropIndexes: admin.dropIndexes,
  deleteIndexes: admin.dropIndexes,
  insert: write.insert,
  update: write.update,
  delete: write.remove,
  findAndModify: write.findAndModify,
  findandmodify: write.findAndModify,
  find: read.find,
  getMore: read.getMore,
  killCursors: read.killCursors,
  count: read.count,
  distinct: read.distinct,
  aggregate: read.aggregate,
};

/** Names of the commands this server answers. */
export const supportedCommands = Object.keys(handlers);

/**
 * Runs one command document and returns the reply; errors become `{ ok: 0, errmsg, code,
 * codeName }`. Generic fields (`lsid`, `$db`, `txnNumber`, `$clusterTime`, read/write concern)
 * are ignored by every handler.
 */
export function runCommand(cmd: Document, ctx: CommandContext): Document {
  const name = Object.keys(cmd)[0] ?? '';
  const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
  try {
    if (!handler) throw commandNotFound(name);
    return handler(cmd, ctx);
  } catch (err) {
    const e = toCommandError(err);
    return e.toReply();
  }
}
