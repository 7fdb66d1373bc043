import { deserialize, serialize, type Document } from 'bson';

/** Opcodes this server reads or writes. */
export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;

/** BSON decoding used for every incoming document: int64 stays a bigint so Long round-trips. */
export const DESERIALIZE_OPTIONS = { useBigInt64: true } as const;

/** One parsed request: the command document, with kind-1 sequences folded into it. */
export interface WireRequest {
  requestId: number;
  opCode: number;
  /** The command document (OP_MSG body, or the OP_QUERY query with `$query` unwrapped). */
  command: Document;
  /** Database from `$db` (OP_MSG) or the `<db>.$cmd` namespace (OP_QUERY). */
  db: string;
  /** OP_MSG `moreToCome`: the client expects no reply (unacknowledged write). */
  moreToCome: boolean;
}

const MSG_CHECKSUM_PRESENT = 1;
const MSG_MORE_TO_COME = 2;

function readCString(buf: Buffer, at: number): [string, number] {
  const end = buf.indexOf(0, at);
  if (end < 0) throw new Error('Unterminated cstring in message');
  return [buf.toString('utf8', at, end), end + 1];
}

function readDocument(buf: Buffer, at: number): [Document, number] {
  const size = buf.readInt32LE(at);
  const doc = deserialize(buf.subarray(at, at + size), DESERIALIZE_OPTIONS);
  return [doc, at + size];
}

/**
 * Parses one complete message (header included). Document sequences (kind 1 sections, which the
 * driver uses for `documents`, `updates` and `deletes`) become arrays on the command document, so
 * commands never care which form the client chose.
 */
export function parseMessage(msg: Buffer): WireRequest {
  const requestId = msg.readInt32LE(4);
  const opCode = msg.readInt32LE(12);
  if (opCode === OP_MSG) {
    const flags = msg.readUInt32LE(16);
    const end = flags & MSG_CHECKSUM_PRESENT ? msg.length - 4 : msg.length;
    let at = 20;
    let command: Document | undefined;
    const sequences: Array<[string, Document[]]> = [];
    while (at < end) {
      const kind = msg.readUInt8(at);
      at += 1;
      if (kind === 0) {
        [command, at] = readDocument(msg, at);
      } else if (kind === 1) {
        const size = msg.readInt32LE(at);
        const sectionEnd = at + size;
        let name: string;
        [name, at] = readCString(msg, at + 4);
        const docs: Document[] = [];
        while (at < sectionEnd) {
          let doc: Document;
          [doc, at] = readDocument(msg, at);
          docs.push(doc);
        }
        sequences.push([name, docs]);
      } else {
        throw new Error(`Unexpected OP_MSG section kind ${kind}; expected 0 or 1`);
      }
    }
    if (!command) throw new Error('OP_MSG without a body section');
    for (const [name, docs] of sequences) command[name] = docs;
    return { requestId, opCode, command, db: String(command.$db ?? 'admin'), moreToCome: (flags & MSG_MORE_TO_COME) !== 0 };
  }
  if (opCode === OP_QUERY) {
    const [ns, at] = readCString(msg, 20);
    // flags (4 bytes) precede the namespace; numberToSkip and numberToReturn follow it.
    const [query] = readDocument(msg, at + 8);
    const command = query.$query && typeof query.$query === 'object' ? (query.$query as Document) : query;
    return { requestId, opCode, command, db: ns.slice(0, ns.indexOf('.')), moreToCome: false };
  }
  throw new Error(`Unsupported opcode ${opCode}`);
}

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(requestId, 4);
  h.writeInt32LE(responseTo, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

/** Encodes an OP_MSG reply with a single body section. */
export function encodeOpMsg(reply: Document, requestId: number, responseTo: number): Buffer {
  const body = serialize(reply, { ignoreUndefined: true });
  const prefix = Buffer.alloc(5); // flagBits (0) + section kind 0
  return Buffer.concat([header(16 + 5 + body.length, requestId, responseTo, OP_MSG), prefix, body]);
}

/** Encodes an OP_REPLY (the answer to a legacy OP_QUERY handshake) carrying one document. */
export function encodeOpReply(reply: Document, requestId: number, responseTo: number): Buffer {
  const body = serialize(reply, { ignoreUndefined: true });
  const fields = Buffer.alloc(20); // responseFlags, cursorID (int64), startingFrom, numberReturned
  fields.writeInt32LE(1, 16);
  return Buffer.concat([header(16 + 20 + body.length, requestId, responseTo, OP_REPLY), fields, body]);
}
