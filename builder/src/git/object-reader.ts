/**
 * Reads Git objects (loose and packed, deltas resolved) with Node's native zlib and SHA-1.
 *
 * Why not isomorphic-git's `readObject`: it inflates with pako (JavaScript) and hashes through
 * WebCrypto one promise at a time, several times the CPU of the native path per object (builder
 * docs/benchmarks.md, "Git object reads").
 * Every object read here is checked against its id, as isomorphic-git checks loose ones.
 * Whatever this reader does not handle (alternates, a pack index of another version) is
 * answered by isomorphic-git instead.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import git from 'isomorphic-git';
import { appError } from '../errors.ts';

/** A Git object's type and content (without the `<type> <size>\0` header). */
export interface GitObject { type: string; content: Buffer }

/** Reads objects of one repository by id. */
export interface GitObjectReader {
  read(oid: string): Promise<GitObject>;
}

const PACK_TYPES = ['', 'commit', 'tree', 'blob', 'tag', '', 'ofs_delta', 'ref_delta'];
/** Delta bases kept resolved: trees and blobs are often bases of several others. */
const BASE_CACHE = 512;

interface PackIndex { names: Buffer; offsets: number[]; count: number; fanout: Uint32Array; ends: Map<number, number> }
interface Pack { index: PackIndex; file: string; reads: number; bytes?: Buffer }

/** Entries read one by one from a pack before the whole pack is read instead (a first build reads most of it). */
const ENTRY_READS = 64;

/**
 * Pack indexes this process parsed, by index file with its size and time: a pack and its index
 * never change once written (a repack writes new ones), and parsing a 10,000-object index (its
 * offsets sorted to know where each entry ends) cost ~55 ms of every build of a large site.
 */
const parsedIndexes = new Map<string, PackIndex | undefined>();
const PARSED_INDEXES = 32;

function packIndex(idxFile: string, packSize: number): PackIndex | undefined {
  const stat = fs.statSync(idxFile, { throwIfNoEntry: false });
  if (!stat) return undefined;
  const key = `${idxFile}\0${stat.size}\0${stat.mtimeMs}\0${packSize}`;
  if (parsedIndexes.has(key)) return parsedIndexes.get(key);
  const index = parseIndex(fs.readFileSync(idxFile), packSize);
  if (parsedIndexes.size >= PARSED_INDEXES) parsedIndexes.delete(parsedIndexes.keys().next().value!);
  parsedIndexes.set(key, index);
  return index;
}

/**
 * The bytes of one pack entry, read where it lies: a build that reads a few objects (an edit)
 * must not read the whole pack (tens of MB for a large site, ~165 ms at 10,000 pages) to get them.
 */
function readEntry(file: string, start: number, end: number): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const bytes = Buffer.allocUnsafe(end - start);
    let got = 0;
    while (got < bytes.length) {
      const n = fs.readSync(fd, bytes, got, bytes.length - got, start + got);
      if (n === 0) throw new Error(`pack ${file} ends before ${end}`);
      got += n;
    }
    return bytes;
  } finally {
    fs.closeSync(fd);
  }
}

function parseIndex(bytes: Buffer, packSize: number): PackIndex | undefined {
  // Version 2 only (`\377tOc`, version 2), what Git has written since 1.5.2.
  if (bytes.readUInt32BE(0) !== 0xff744f63 || bytes.readUInt32BE(4) !== 2) return undefined;
  const fanout = new Uint32Array(256);
  for (let i = 0; i < 256; i++) fanout[i] = bytes.readUInt32BE(8 + 4 * i);
  const count = fanout[255];
  const namesAt = 8 + 1024;
  const offsetsAt = namesAt + 20 * count + 4 * count;
  const largeAt = offsetsAt + 4 * count;
  const offsets = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const small = bytes.readUInt32BE(offsetsAt + 4 * i);
    offsets[i] = small & 0x80000000 ? Number(bytes.readBigUInt64BE(largeAt + 8 * (small & 0x7fffffff))) : small;
  }
  // Each entry ends where the next one starts (the pack's last 20 bytes are its checksum).
  const sorted = [...offsets].sort((a, b) => a - b);
  const ends = new Map<number, number>();
  for (let i = 0; i < sorted.length; i++) ends.set(sorted[i], i + 1 < sorted.length ? sorted[i + 1] : packSize - 20);
  return { names: bytes.subarray(namesAt, namesAt + 20 * count), offsets, count, fanout, ends };
}

function findOffset(index: PackIndex, oid: Buffer): number | undefined {
  let lo = oid[0] === 0 ? 0 : index.fanout[oid[0] - 1];
  let hi = index.fanout[oid[0]];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const cmp = index.names.compare(oid, 0, 20, mid * 20, mid * 20 + 20);
    if (cmp === 0) return index.offsets[mid];
    if (cmp > 0) hi = mid; else lo = mid + 1;
  }
  return undefined;
}

/** A variable-length size of a delta header, from `at`; returns the value and the next position. */
function deltaSize(delta: Buffer, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  let byte: number;
  do {
    byte = delta[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

/** Git's delta format: copies from the base and inserted bytes. */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let [size, at] = deltaSize(delta, 0);
  if (size !== base.length) throw new Error(`delta base is ${base.length} bytes, expected ${size}`);
  [size, at] = deltaSize(delta, at);
  const out = Buffer.allocUnsafe(size);
  let written = 0;
  while (at < delta.length) {
    const op = delta[at++];
    if (op & 0x80) {
      let offset = 0;
      let length = 0;
      for (let i = 0; i < 4; i++) if (op & (1 << i)) offset += delta[at++] * 2 ** (8 * i);
      for (let i = 0; i < 3; i++) if (op & (0x10 << i)) length += delta[at++] << (8 * i);
      if (length === 0) length = 0x10000;
      written += base.copy(out, written, offset, offset + length);
    } else if (op > 0) {
      written += delta.copy(out, written, at, at + op);
      at += op;
    } else {
      throw new Error('delta instruction 0 is reserved');
    }
  }
  if (written !== size) throw new Error(`delta gave ${written} bytes, expected ${size}`);
  return out;
}

function checked(oid: string, type: string, content: Buffer): GitObject {
  const sha = createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
  if (sha !== oid) throw appError('git_object_corrupt', `Git object ${oid} does not match its id (${sha})`);
  return { type, content };
}

/** A reader over the repository whose Git folder is `gitdir`. */
export function createObjectReader(gitdir: string): GitObjectReader {
  const objects = path.join(gitdir, 'objects');
  let packs: Pack[] | undefined;
  const bases = new Map<string, GitObject>();

  const loadPacks = (): Pack[] => {
    if (packs) return packs;
    const dir = path.join(objects, 'pack');
    const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.idx')).sort() : [];
    packs = [];
    for (const name of names) {
      const file = path.join(dir, `${name.slice(0, -4)}.pack`);
      const size = fs.statSync(file, { throwIfNoEntry: false })?.size;
      const index = size === undefined ? undefined : packIndex(path.join(dir, name), size);
      if (index) packs.push({ index, file, reads: 0 });
    }
    return packs;
  };

  const remember = (key: string, obj: GitObject) => {
    if (bases.size >= BASE_CACHE) bases.delete(bases.keys().next().value!);
    bases.set(key, obj);
  };

  /** The object at `offset` of `pack`, deltas applied (type and content, not yet checked). */
  const readPacked = async (pack: Pack, offset: number): Promise<GitObject> => {
    const key = `${pack.file}:${offset}`;
    const known = bases.get(key);
    if (known) return known;
    // The entry alone: its header, then its compressed data up to where the next entry starts.
    const end = pack.index.ends.get(offset);
    if (end === undefined) throw new Error(`no pack entry starts at ${offset}`);
    if (++pack.reads > ENTRY_READS) pack.bytes ??= fs.readFileSync(pack.file);
    const bytes = pack.bytes ? pack.bytes.subarray(offset, end) : readEntry(pack.file, offset, end);
    let at = 0;
    let byte = bytes[at++];
    const type = PACK_TYPES[(byte >> 4) & 7];
    while (byte & 0x80) byte = bytes[at++];
    let base: GitObject;
    if (type === 'ofs_delta') {
      byte = bytes[at++];
      let distance = byte & 0x7f;
      while (byte & 0x80) { byte = bytes[at++]; distance = (distance + 1) * 128 + (byte & 0x7f); }
      base = await readPacked(pack, offset - distance);
    } else if (type === 'ref_delta') {
      base = await read(bytes.subarray(at, at + 20).toString('hex'));
      at += 20;
    } else if (type) {
      return { type, content: inflateSync(bytes.subarray(at)) };
    } else {
      throw new Error(`unknown pack entry type at ${offset}`);
    }
    const obj = { type: base.type, content: applyDelta(base.content, inflateSync(bytes.subarray(at))) };
    remember(key, obj);
    return obj;
  };

  const native = async (oid: string): Promise<GitObject | undefined> => {
    // Synchronous: a loose object is a few KB, and one async read costs four thread-pool hops.
    let loose: Buffer | undefined;
    try {
      loose = fs.readFileSync(path.join(objects, oid.slice(0, 2), oid.slice(2)));
    } catch {
      loose = undefined;
    }
    if (loose) {
      const raw = inflateSync(loose);
      const space = raw.indexOf(0x20);
      const nul = raw.indexOf(0, space);
      return checked(oid, raw.toString('latin1', 0, space), raw.subarray(nul + 1));
    }
    const id = Buffer.from(oid, 'hex');
    for (const pack of loadPacks()) {
      const offset = findOffset(pack.index, id);
      if (offset !== undefined) {
        const obj = await readPacked(pack, offset);
        return checked(oid, obj.type, obj.content);
      }
    }
    return undefined;
  };

  const cache = {};
  async function read(oid: string): Promise<GitObject> {
    if (!/^[0-9a-f]{40}$/.test(oid)) throw appError('git_object_missing', `Unexpected Git object id "${oid}"`);
    const found = await native(oid);
    if (found) return found;
    // Alternates, packs added since the first read, other index versions: isomorphic-git's way.
    const obj = await git.readObject({ fs, gitdir, oid, cache, format: 'content' });
    return { type: obj.type, content: Buffer.from(obj.object as Uint8Array) };
  }
  return { read };
}
