import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import type { ObjectStore } from '../../src/store/object-store.ts';

/** A real local store that remembers which keys were written and deleted (and how often each was read). */
export function recordingStore(root: string): { store: ObjectStore; puts: string[]; deletes: string[]; gets: string[]; clear(): void } {
  const inner = createLocalDirStore(root);
  const puts: string[] = [];
  const deletes: string[] = [];
  const gets: string[] = [];
  const store: ObjectStore = {
    put: (key, bytes, o) => { puts.push(key); return inner.put(key, bytes, o); },
    putStream: (key, body, o) => { puts.push(key); return inner.putStream(key, body, o); },
    get: (key) => { gets.push(key); return inner.get(key); },
    head: (key) => inner.head(key),
    list: (prefix) => inner.list(prefix),
    delete: (keys) => { deletes.push(...keys); return inner.delete(keys); },
    copy: (from, to) => { puts.push(to); return inner.copy(from, to); },
  };
  return { store, puts, deletes, gets, clear: () => { puts.length = 0; deletes.length = 0; gets.length = 0; } };
}
