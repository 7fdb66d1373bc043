import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { appError } from '../errors.ts';
import { contentTypeFor } from './content-type.ts';
import { limitConcurrency } from './limit-concurrency.ts';
import { assertKey, sizedChunks, type ObjectStore } from './object-store.ts';

const TEMP_MARK = '.folio-tmp-';

/** ETags remembered by file identity at most (a site's pages and the few large files asked for often). */
const MAX_ETAGS = 20_000;

/**
 * An object store in a local folder: key `a/b.html` is the file `<root>/a/b.html`, so the
 * folder is the site and any static server can serve it. Writes go to a temp file renamed
 * into place, so a reader never sees half a file. Content-Type is not stored: it follows the
 * extension (`contentTypeFor`), which is how static servers serve it too. `concurrency`
 * bounds parallel file operations (default 16).
 */
export function createLocalDirStore(folder: string, concurrency = 16): ObjectStore {
  // Absolute, so the folders remembered below compare equal to those pruned.
  const root = path.resolve(folder);
  const limit = limitConcurrency(concurrency);
  const file = (key: string) => { assertKey(key); return path.join(root, key); };
  // Folders this store made or found: a site's thousands of objects share a few hundred
  // folders, and one `mkdir` per write was ~5% of a cold build's main-thread CPU. A folder
  // pruned by `delete` is forgotten; one removed behind the store's back fails the write once
  // (ENOENT), which is retried after making it.
  const made = new Set<string>();
  // File → its MD5 and the identity (inode, size, times) it was computed for.
  const etags = new Map<string, { identity: string; etag: string }>();
  const remember = (target: string, identity: string, etag: string) => {
    etags.delete(target);
    etags.set(target, { identity, etag });
    if (etags.size > MAX_ETAGS) etags.delete(etags.keys().next().value!);
  };
  const ensureDir = async (dir: string, again = false) => {
    if (made.has(dir) && !again) return;
    await fs.promises.mkdir(dir, { recursive: true });
    made.add(dir);
  };
  /** Writes `key` through a temp file renamed into place; `write` fills the open temp file. Returns the file's path. */
  const writeInPlace = async (key: string, write: (handle: fs.promises.FileHandle) => Promise<void>): Promise<string> => {
    const target = file(key);
    const temp = `${target}${TEMP_MARK}${randomBytes(6).toString('hex')}`;
    try {
      await ensureDir(path.dirname(target));
      const handle = await fs.promises.open(temp, 'w').catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
        await ensureDir(path.dirname(target), true);
        return fs.promises.open(temp, 'w');
      });
      try {
        await write(handle);
      } finally {
        await handle.close();
      }
      await fs.promises.rename(temp, target);
      return target;
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      throw appError('store_write_failed', `Could not write ${key}`, err);
    }
  };
  return {
    put: (key, bytes) => limit(async () => { await writeInPlace(key, (handle) => writeAll(handle, bytes)); }),
    // Hashed as it is written: the MD5 is remembered for the file, so the `head` that usually
    // follows an upload (is this object what the build has?) does not read it back. Not bounded
    // by `limit`: an upload arrives as slowly as its sender sends it.
    putStream: async (key, body) => {
      const md5 = createHash('md5');
      let inode: bigint | undefined;
      const target = await writeInPlace(key, async (handle) => {
        await fs.promises.writeFile(handle, sizedChunks(body, (chunk) => md5.update(chunk)));
        inode = (await handle.stat({ bigint: true })).ino;
      });
      const stat = await fs.promises.stat(target, { bigint: true }).catch(() => undefined);
      // Only if the file in place is still the one written (another write may have replaced it).
      if (stat && stat.ino === inode) remember(target, identityOf(stat), md5.digest('hex'));
    },
    get: (key) => limit(async () => {
      try {
        return await fs.promises.readFile(file(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EISDIR') return undefined;
        throw appError('store_read_failed', `Could not read ${key}`, err);
      }
    }),
    head: (key) => limit(async () => {
      const target = file(key);
      const stat = await fs.promises.stat(target, { bigint: true }).catch(() => undefined);
      if (!stat?.isFile()) return undefined;
      // A write renames a new file into place: same inode, size and times is the same content, so
      // the MD5 of a file is read and computed once, not on every request for it (a site's
      // 55 MB llms-full.txt: ~0.4 s of reading and hashing on a slow machine).
      const identity = identityOf(stat);
      const known = etags.get(target);
      let etag = known?.identity === identity ? known.etag : undefined;
      let size = Number(stat.size);
      if (etag === undefined) {
        const bytes = await fs.promises.readFile(target).catch(() => undefined);
        if (bytes === undefined) return undefined;
        etag = createHash('md5').update(bytes).digest('hex');
        size = bytes.byteLength;
        // Only if the file is still the one stat saw; otherwise the next head computes it again.
        if (size === Number(stat.size)) remember(target, identity, etag);
        else etags.delete(target);
      }
      return { etag, size, contentType: contentTypeFor(key) };
    }),
    list: async (prefix) => {
      const dirPart = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
      const keys: string[] = [];
      const visit = async (rel: string): Promise<void> => {
        const entries = await fs.promises.readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
        for (const e of entries) {
          const key = rel === '' ? e.name : `${rel}/${e.name}`;
          if (e.isDirectory()) { if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) await visit(key); }
          else if (e.isFile() && key.startsWith(prefix) && !e.name.includes(TEMP_MARK)) keys.push(key);
        }
      };
      await visit(dirPart);
      return keys.sort();
    },
    // A hard link of the file in place: writes never change a file, they rename a new one over
    // the key, so the link keeps the bytes it was made from whatever is written to either key
    // later, and copying a 55 MB file costs one directory entry. Another file system (or one
    // without hard links) gets a real copy. Either way the copy is renamed into place like a write.
    copy: (from, to) => limit(async () => {
      const source = file(from);
      const target = file(to);
      const temp = `${target}${TEMP_MARK}${randomBytes(6).toString('hex')}`;
      const place = async (): Promise<void> => {
        try {
          await fs.promises.link(source, temp);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') throw err;
          // EXDEV (another device), EPERM/ENOTSUP/EMLINK (no hard links here, too many): copy.
          await fs.promises.copyFile(source, temp);
        }
      };
      try {
        await ensureDir(path.dirname(target));
        try {
          await place();
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          // The source is missing, or the target's folder was removed behind the store's back.
          const stat = await fs.promises.stat(source).catch(() => undefined);
          if (!stat?.isFile()) return false;
          await ensureDir(path.dirname(target), true);
          await place();
        }
        await fs.promises.rename(temp, target);
        // Renaming a link over a link to the same file changes nothing and leaves the temp name
        // (POSIX): a copy back onto a key that was never replaced.
        await fs.promises.rm(temp, { force: true });
        etags.delete(target);
        return true;
      } catch (err) {
        await fs.promises.rm(temp, { force: true });
        throw appError('store_write_failed', `Could not copy ${from} to ${to}`, err);
      }
    }),
    delete: async (keys) => {
      await Promise.all(keys.map((key) => limit(async () => {
        const target = file(key);
        await fs.promises.rm(target, { force: true });
        for (const dir of await pruneEmptyDirs(root, path.dirname(target))) made.delete(dir);
      })));
    },
  };
}

/**
 * Writes all of `bytes` at the handle's position in as few calls as the system takes (one, for a
 * regular file). `FileHandle.writeFile` writes 512 KB per trip to the thread pool, each trip
 * waiting for the main thread, which a build's loops keep busy (builder docs/benchmarks.md,
 * "Local store writes").
 */
async function writeAll(handle: fs.promises.FileHandle, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.byteLength;) {
    const { bytesWritten } = await handle.write(bytes, at, bytes.byteLength - at);
    at += bytesWritten;
  }
}

/** What makes a file the same file: a write renames a new one into place. */
const identityOf = (stat: fs.BigIntStats) => `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;

/**
 * Removes now-empty folders up to (not including) the root, so deleted pages leave no trace.
 * Returns the folders removed.
 */
async function pruneEmptyDirs(root: string, dir: string): Promise<string[]> {
  const top = path.resolve(root);
  const removed: string[] = [];
  let current = path.resolve(dir);
  while (current.startsWith(`${top}${path.sep}`)) {
    try {
      await fs.promises.rmdir(current);
    } catch {
      return removed;
    }
    removed.push(current);
    current = path.dirname(current);
  }
  return removed;
}
