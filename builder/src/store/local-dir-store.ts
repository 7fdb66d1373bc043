import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { appError } from '../errors.ts';
import { contentTypeFor } from './content-type.ts';
import { limitConcurrency } from './limit-concurrency.ts';
import { assertKey, type ObjectStore } from './object-store.ts';

const TEMP_MARK = '.folio-tmp-';

/**
 * An object store in a local folder: key `a/b.html` is the file `<root>/a/b.html`, so the
 * folder is the site and any static server can serve it. Writes go to a temp file renamed
 * into place, so a reader never sees half a file. Content-Type is not stored: it follows the
 * extension (`contentTypeFor`), which is how static servers serve it too. `concurrency`
 * bounds parallel file operations (default 16).
 */
export function createLocalDirStore(root: string, concurrency = 16): ObjectStore {
  const limit = limitConcurrency(concurrency);
  const file = (key: string) => { assertKey(key); return path.join(root, key); };
  return {
    put: (key, bytes) => limit(async () => {
      const target = file(key);
      const temp = `${target}${TEMP_MARK}${randomBytes(6).toString('hex')}`;
      try {
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await fs.promises.writeFile(temp, bytes);
        await fs.promises.rename(temp, target);
      } catch (err) {
        await fs.promises.rm(temp, { force: true });
        throw appError('store_write_failed', `Could not write ${key}`, err);
      }
    }),
    get: (key) => limit(async () => {
      try {
        return await fs.promises.readFile(file(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EISDIR') return undefined;
        throw appError('store_read_failed', `Could not read ${key}`, err);
      }
    }),
    head: (key) => limit(async () => {
      const bytes = await fs.promises.readFile(file(key)).catch(() => undefined);
      if (bytes === undefined) return undefined;
      return { etag: createHash('md5').update(bytes).digest('hex'), size: bytes.byteLength, contentType: contentTypeFor(key) };
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
    delete: async (keys) => {
      await Promise.all(keys.map((key) => limit(async () => {
        const target = file(key);
        await fs.promises.rm(target, { force: true });
        await pruneEmptyDirs(root, path.dirname(target));
      })));
    },
  };
}

/** Removes now-empty folders up to (not including) the root, so deleted pages leave no trace. */
async function pruneEmptyDirs(root: string, dir: string): Promise<void> {
  const top = path.resolve(root);
  let current = path.resolve(dir);
  while (current.startsWith(`${top}${path.sep}`)) {
    try {
      await fs.promises.rmdir(current);
    } catch {
      return;
    }
    current = path.dirname(current);
  }
}
