/**
 * Runs Pagefind (its Node API, which drives the bundled binary) over the pages of one shard and
 * returns the bundle's files.
 */
import * as pagefind from 'pagefind';
import { appError } from '../errors.ts';
import { searchDocument, type SearchFilters, type SearchPage } from './search-shards.ts';

const UNUSED = /^pagefind-(ui|modular-ui|component-ui)\.(js|css)$/;

/**
 * A Pagefind index being filled: pages may be added in several calls (e.g. the unchanged pages
 * of a shard while the changed ones still compile) before the bundle is written.
 */
export interface PagefindShard {
  /** Indexes `pages`; result URLs are `basePath + urlPath`. */
  add(pages: readonly SearchPage[]): Promise<void>;
  /** The bundle's files (file name inside the bundle → bytes); closes the index. */
  files(): Promise<Map<string, Buffer>>;
  /** Closes the index without writing it; does nothing once closed. */
  discard(): Promise<void>;
}

/** One page as Pagefind reads it: its URL path and its search document (`searchDocument`). */
export interface SearchDocument { urlPath: string; html: string }

/** A Pagefind index of search documents; {@link PagefindShard} is the same over pages. */
export interface PagefindIndex {
  add(documents: readonly SearchDocument[]): Promise<void>;
  files: PagefindShard['files'];
  discard: PagefindShard['discard'];
}

/**
 * Opens an empty Pagefind index of search documents. Agents-only content
 * (`data-visibility="agents"`) is left out of it.
 *
 * @throws BuilderError `search_index` (kind `app`, retried) when Pagefind fails.
 */
export async function openPagefindIndex(basePath = ''): Promise<PagefindIndex> {
  const { index, errors } = await pagefind.createIndex({ excludeSelectors: ['[data-visibility="agents"]'], forceLanguage: 'en' });
  if (!index) throw appError('search_index', `Pagefind could not start: ${errors.join('; ')}`);
  let open = true;
  const close = async () => {
    if (!open) return;
    open = false;
    await index.deleteIndex();
  };
  return {
    async add(documents) {
      // All files in flight at once: the service pipelines them, which saves a round trip per page.
      const added = await Promise.all(documents.map((doc) => index.addHTMLFile({ url: basePath + doc.urlPath, content: doc.html })));
      added.forEach((result, i) => {
        if (result.errors.length) throw appError('search_index', `Pagefind could not index ${documents[i].urlPath}: ${result.errors.join('; ')}`);
      });
    },
    async files() {
      try {
        const { files, errors: fileErrors } = await index.getFiles();
        if (fileErrors.length) throw appError('search_index', `Pagefind could not write its bundle: ${fileErrors.join('; ')}`);
        // The site template has its own search UI: Pagefind's UI bundles would be dead weight.
        return new Map(files.filter((file) => !UNUSED.test(file.path)).map((file) => [file.path, Buffer.from(file.content)]));
      } finally {
        await close();
      }
    },
    discard: close,
  };
}

/** The search documents of `pages`, in their order. */
export function searchDocuments(pages: readonly SearchPage[], filters?: SearchFilters): SearchDocument[] {
  return pages.map((page) => ({ urlPath: page.urlPath, html: searchDocument(page, filters) }));
}

/**
 * Opens an empty Pagefind index for one shard's pages (see {@link openPagefindIndex}).
 *
 * @throws BuilderError `search_index` (kind `app`, retried) when Pagefind fails.
 */
export async function openPagefindShard(basePath = '', filters?: SearchFilters): Promise<PagefindShard> {
  const index = await openPagefindIndex(basePath);
  return { add: (pages) => index.add(searchDocuments(pages, filters)), files: index.files, discard: index.discard };
}

/**
 * Indexes `pages` into one Pagefind bundle (see {@link openPagefindShard}).
 *
 * @returns file name inside the bundle (e.g. `pagefind-entry.json`) → bytes.
 * @throws BuilderError `search_index` (kind `app`, retried) when Pagefind fails.
 */
export async function buildPagefindShard(pages: readonly SearchPage[], basePath = '', filters?: SearchFilters): Promise<Map<string, Buffer>> {
  const shard = await openPagefindShard(basePath, filters);
  try {
    await shard.add(pages);
    return await shard.files();
  } finally {
    await shard.discard();
  }
}

/** Stops the Pagefind process (call once when the builder shuts down). */
export async function closePagefind(): Promise<void> {
  await pagefind.close();
}
