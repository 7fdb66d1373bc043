import type { Document } from 'bson';
import { keyOf, valuesAtPath } from './bson-values.ts';
import type { CommandContext, CommandHandler } from './command-context.ts';
import { badValue } from './errors.ts';
import { aggregateDocs, selectDocs } from './query-engine.ts';

const num = (v: unknown): number | undefined => (v === undefined || v === null ? undefined : Number(v));

/** `find` with filter, sort, projection, skip, limit, batchSize and singleBatch. */
export const find: CommandHandler = (cmd, { store, cursors, db }) => {
  const name = String(cmd.find);
  const limit = num(cmd.limit) ?? 0;
  const docs = selectDocs(store.get(db, name), {
    filter: cmd.filter as Document | undefined,
    sort: cmd.sort as Document | undefined,
    projection: cmd.projection as Document | undefined,
    skip: num(cmd.skip),
    limit,
  });
  const single = !!cmd.singleBatch || limit < 0;
  return cursors.first(`${db}.${name}`, docs, num(cmd.batchSize), single);
};

/** `getMore` on an open cursor. */
export const getMore: CommandHandler = (cmd, { cursors }) => cursors.more(BigInt(cmd.getMore as bigint), num(cmd.batchSize));

/** `killCursors`. */
export const killCursors: CommandHandler = (cmd, { cursors }) => {
  const { killed, notFound } = cursors.kill(((cmd.cursors ?? []) as unknown[]).map((id) => BigInt(id as bigint)));
  return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
};

/** `count` with query, skip and limit. */
export const count: CommandHandler = (cmd, { store, db }) => {
  const docs = selectDocs(store.get(db, String(cmd.count)), { filter: cmd.query as Document | undefined, skip: num(cmd.skip), limit: num(cmd.limit) });
  return { n: docs.length, ok: 1 };
};

/** `distinct`: array values are unwound, duplicates compared as mongod compares index keys. */
export const distinct: CommandHandler = (cmd, { store, db }) => {
  if (typeof cmd.key !== 'string') throw badValue("The 'key' field is required and must be a string");
  const docs = selectDocs(store.get(db, String(cmd.distinct)), { filter: cmd.query as Document | undefined });
  const seen = new Map<string, unknown>();
  for (const doc of docs) {
    for (const v of valuesAtPath(doc, cmd.key)) {
      for (const item of Array.isArray(v) ? v : [v]) if (!seen.has(keyOf(item))) seen.set(keyOf(item), item);
    }
  }
  return { values: [...seen.values()], ok: 1 };
};

function resolver(ctx: CommandContext): (name: string) => Document[] {
  return (name) => [...(ctx.store.get(ctx.db, name)?.docs.values() ?? [])];
}

/** `aggregate` with a cursor reply; `$lookup` reads collections of the same database. */
export const aggregate: CommandHandler = (cmd, ctx) => {
  if (!Array.isArray(cmd.pipeline)) throw badValue("'pipeline' option must be specified as an array");
  const name = typeof cmd.aggregate === 'string' ? cmd.aggregate : '$cmd.aggregate';
  const pipeline = cmd.pipeline as Document[];
  if (pipeline.some((s) => s.$out !== undefined || s.$merge !== undefined)) {
    throw badValue('$out and $merge are not supported by the embedded server');
  }
  const docs = aggregateDocs(ctx.store.get(ctx.db, name), pipeline, resolver(ctx));
  const batchSize = num((cmd.cursor as Document | undefined)?.batchSize);
  return ctx.cursors.first(`${ctx.db}.${name}`, docs, batchSize);
};
