/**
 * The assistant's view of each published site, built in the control plane and cached per
 * deployment. Decision: the index is not a build output. It is made from `llms-full.txt`, which
 * every deployment already publishes (one object read, whatever the page count), and kept while
 * that object's ETag stays the same, so no builder or cache format changes with the ranking.
 * It is built when a deployment finishes ({@link SiteIndex.warm}, called by
 * `warmOnDeployment`), so the first question after a deployment finds it ready; a question that
 * still finds none (a control plane restarted since, or an index evicted from the cache) builds
 * it then, and a deployment made elsewhere is picked up within {@link HEAD_TTL_MS}. Only the
 * host's own prefix (`sites/<project id>/`) is ever read.
 */
import type { ObjectStore } from '@folio/builder';
import { candidateKeys } from '@folio/builder';
import { sitePrefix } from '../sites/bucket-prefixes.ts';
import { buildIndex, IndexMemory, type Bm25Index } from './bm25-index.ts';
import { anchorOf, htmlHeadings } from './page-anchors.ts';
import { exportPages, type ExportPages } from './export-pages.ts';
import { pageAudiences, type PageAudiences } from './page-audiences.ts';

/** How long a site's ETag is trusted before the store is asked again. */
export const HEAD_TTL_MS = 2_000;

/** A deployment's index and what citations need. */
export interface SiteContent {
  etag: string;
  /** The site's name (the `# Name` line heading the export). */
  name: string;
  index: Bm25Index;
  /** What the cache budget counts: twice the size of `llms-full.txt` (its text, and its bytes kept to compare the next one with). */
  size: number;
  /** Site path of a passage's section: `/page#anchor` when the page has that heading, else the nearest earlier one, else `/page`. */
  sectionPath(passage: number): Promise<string>;
  /** What of a passage's page only agents get (undefined when the page's HTML is missing). */
  audiences(passage: number): Promise<PageAudiences | undefined>;
}

export interface SiteIndexOptions {
  store: ObjectStore;
  /** Characters of `llms-full.txt` kept over all cached sites; least recently used out first. Default 200 M. */
  maxChars?: number;
  /** Clock (tests). */
  now?: () => number;
}

/** What started an index build. */
export type BuildTrigger = 'deployment' | 'request';

/** Index builds so far (what a warm start saves is visible here). */
export interface SiteIndexStats {
  builds: number;
  /** Builds started by a finished deployment ({@link SiteIndex.warm}). */
  warmBuilds: number;
  /** Pages split and tokenized by those builds; a page unchanged since its site's last build is reused instead. */
  pagesAnalysed: number;
}

export interface SiteIndex {
  /** The project's current content, or undefined when it has published no pages. */
  get(projectId: string): Promise<SiteContent | undefined>;
  /**
   * Builds the project's index for what is published now (asking the store afresh, not the
   * cached ETag), unless it is already built or building. Resolves when it is ready; rejects
   * with `signal`'s reason once it is aborted (what it analysed is kept for the next build).
   */
  warm(projectId: string, signal?: AbortSignal): Promise<void>;
  stats(): SiteIndexStats;
}

/** Creates the per-deployment cache. */
export function siteIndex(opts: SiteIndexOptions): SiteIndex {
  const maxChars = opts.maxChars ?? 200_000_000;
  const now = opts.now ?? Date.now;
  const cache = new Map<string, SiteContent>();
  const heads = new Map<string, { etag: string | undefined; at: number }>();
  const building = new Map<string, Promise<SiteContent | undefined>>();
  // What each site's last index build parsed and analysed, for its next; dropped with its index.
  const lasts = new Map<string, { parsed?: ExportPages; memory: IndexMemory }>();
  const counts: SiteIndexStats = { builds: 0, warmBuilds: 0, pagesAnalysed: 0 };

  async function load(projectId: string, etag: string, signal?: AbortSignal): Promise<SiteContent | undefined> {
    const prefix = sitePrefix(projectId);
    const stored = await opts.store.get(`${prefix}llms-full.txt`);
    if (!stored) return undefined;
    signal?.throwIfAborted();
    let last = lasts.get(projectId);
    if (!last) lasts.set(projectId, last = { memory: new IndexMemory() });
    // Parsed from where it differs from the last one read (export-pages.ts).
    const parsed = last.parsed = exportPages(Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength), last.parsed);
    const { pages, bytes } = parsed;
    const { memory } = last;
    const before = memory.analysed;
    let index: Bm25Index;
    try {
      index = await buildIndex(pages, memory, signal);
    } finally {
      counts.pagesAnalysed += memory.analysed - before;
    }
    const { passages } = index;
    // Read from the page's HTML once, the first time a citation or an excerpt of it needs them.
    const facts = new Map<number, Promise<{ headings: [string, string][]; audiences?: PageAudiences }>>();
    const factsOf = (page: number) => {
      let hit = facts.get(page);
      if (!hit) {
        hit = (async () => {
          for (const key of candidateKeys(pages[page].path, false) ?? []) {
            const stored = await opts.store.get(prefix + key);
            if (!stored) continue;
            const html = Buffer.from(stored).toString('utf8');
            return { headings: htmlHeadings(html), audiences: pageAudiences(html) };
          }
          return { headings: [] };
        })().catch(() => ({ headings: [] }));
        facts.set(page, hit);
      }
      return hit;
    };
    const headingsOf = async (page: number) => (await factsOf(page)).headings;
    const name = /^# (.+)$/m.exec(bytes.toString('utf8', 0, 2000))?.[1]?.trim() ?? 'Docs';
    return {
      // Its text, and the bytes kept to parse the next one from where it differs.
      etag, name, index, size: 2 * bytes.length,
      async sectionPath(id) {
        const passage = passages[id];
        const path = pages[passage.page].path;
        const headings = await headingsOf(passage.page);
        for (let at = id; at >= 0 && passages[at].page === passage.page; at--) {
          const p = passages[at];
          if (p.heading === undefined) break;
          const anchor = anchorOf(headings, p.heading, p.occurrence);
          if (anchor) return `${path}#${encodeURIComponent(anchor)}`;
        }
        return path;
      },
      async audiences(id) {
        return (await factsOf(passages[id].page)).audiences;
      },
    };
  }

  function remember(projectId: string, content: SiteContent): void {
    cache.delete(projectId);
    cache.set(projectId, content);
    let total = 0;
    for (const c of cache.values()) total += c.size;
    for (const [id, c] of cache) {
      if (total <= maxChars || id === projectId) break;
      cache.delete(id);
      lasts.delete(id);
      total -= c.size;
    }
  }

  async function current(projectId: string, trigger: BuildTrigger, signal?: AbortSignal): Promise<SiteContent | undefined> {
    let head = heads.get(projectId);
    if (!head || now() - head.at >= HEAD_TTL_MS || trigger === 'deployment') {
      head = { etag: (await opts.store.head(`${sitePrefix(projectId)}llms-full.txt`))?.etag, at: now() };
      heads.set(projectId, head);
    }
    if (head.etag === undefined) return undefined;
    const cached = cache.get(projectId);
    if (cached && cached.etag === head.etag) { remember(projectId, cached); return cached; }
    const key = `${projectId}\0${head.etag}`;
    let pending = building.get(key);
    if (!pending) {
      const etag = head.etag;
      counts.builds++;
      if (trigger === 'deployment') counts.warmBuilds++;
      pending = load(projectId, etag, signal).finally(() => building.delete(key));
      building.set(key, pending);
    }
    let content: SiteContent | undefined;
    try {
      content = await pending;
    } catch (err) {
      // A question that joined a warm-up stopped for the site's next build builds the index itself.
      if (trigger === 'request' && isAbort(err)) return current(projectId, trigger);
      throw err;
    }
    if (content) remember(projectId, content);
    return content;
  }

  return {
    get: (projectId) => current(projectId, 'request'),
    async warm(projectId, signal) {
      await current(projectId, 'deployment', signal);
    },
    stats: () => ({ ...counts }),
  };
}

/** Whether `err` is an aborted signal's reason (`AbortSignal.throwIfAborted`). */
export function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}
