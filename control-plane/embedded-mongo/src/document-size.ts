import { calculateObjectSize, type Document } from 'bson';
import { MongoCommandError } from './errors.ts';

/** mongod's largest document (`BSONObjMaxUserSize`), the `maxBsonObjectSize` hello reports. */
export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;

/**
 * Refuses a document larger than mongod stores, with mongod's code (10334 `BSONObjectTooLarge`)
 * and wording, so callers see the error MongoDB gives them rather than a `RangeError` from
 * encoding it (the journal's and the wire's encoder stop at 17 MB).
 */
export function assertDocumentSize(doc: Document, kind: 'insert' | 'update'): void {
  const size = calculateObjectSize(doc, { ignoreUndefined: true });
  if (size <= MAX_BSON_OBJECT_SIZE) return;
  throw new MongoCommandError(10334, 'BSONObjectTooLarge', kind === 'insert'
    ? `object to insert too large. size in bytes: ${size}, max size: ${MAX_BSON_OBJECT_SIZE}`
    : `Resulting document after update is larger than ${MAX_BSON_OBJECT_SIZE}`);
}
