/**
 * Search shards whose indexing waits for the compile step to end. A large build's memory peaks
 * while its two compile sandboxes run beside the build process, and Pagefind's process, indexing
 * shards as their pages compile, adds ~90 MB to that peak at 10,000 pages (it holds about a
 * quarter of a megabyte per page of the shards it is filling). Its work does not shorten the
 * compile step either: the sandboxes keep both cores busy. So on a large build the shards take
 * their pages as before, in the same order, but only as search documents on disk (a spool); when
 * the compile step ends, Pagefind indexes them one shard at a time while the shells render, on
 * the core the sandboxes have left. The bundles are the same bytes as when indexed early.
 */
import { appError } from '../errors.ts';
import type { Spool } from '../state/spool.ts';
import { openPagefindIndex, searchDocuments, type PagefindShard } from './pagefind-shard.ts';
import type { SearchFilters } from './search-shards.ts';

export class DeferredShards {
  private readonly spool: Spool;
  private opened = 0;
  private released!: () => void;
  /** Ends when the last shard queued so far is written; starts when {@link release} is called. */
  private queue: Promise<unknown> = new Promise<void>((resolve) => (this.released = resolve));

  /** Search documents wait in `spool` (which the build closes). */
  constructor(spool: Spool) {
    this.spool = spool;
  }

  /** As `openPagefindShard`, but indexed only once released, one shard at a time. */
  open = async (basePath = '', filters?: SearchFilters): Promise<PagefindShard> => {
    const id = this.opened++;
    const urlPaths: string[] = [];
    // Discarded, or its files taken (a Pagefind index closes when its files are taken).
    let closed = false;
    const keyOf = (urlPath: string) => `${id} ${urlPath}`;
    return {
      add: async (pages) => {
        for (const doc of searchDocuments(pages, filters)) {
          this.spool.add(keyOf(doc.urlPath), doc.html);
          urlPaths.push(doc.urlPath);
        }
      },
      files: () => this.inTurn(async () => {
        if (closed) throw appError('search_index', 'search shard was discarded, or its bundle already taken');
        closed = true;
        const index = await openPagefindIndex(basePath);
        try {
          for (let i = 0; i < urlPaths.length; i += SEND) {
            await index.add(urlPaths.slice(i, i + SEND).map((urlPath) => ({ urlPath, html: this.document(keyOf(urlPath)) })));
          }
          return await index.files();
        } finally {
          await index.discard();
        }
      }),
      discard: async () => {
        closed = true;
      },
    };
  };

  /** Lets the shards waiting (and those to come) be indexed. */
  release(): void {
    this.released();
  }

  private inTurn<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private document(key: string): string {
    const bytes = this.spool.get(key);
    if (!bytes) throw appError('search_index', `search document ${key} is missing from its spool`);
    return bytes.toString('utf8');
  }
}

/** Documents sent to Pagefind at once: a shard's are read back from the spool a slice at a time. */
const SEND = 100;
