/**
 * The exports step: the site-wide files (`llms.txt`, `llms-full.txt`, feeds, sitemap, robots,
 * redirects, headers), each page's own Markdown export and feed, then the repository's static
 * files. Made once the shells are: an edited page goes live without waiting for them, and a cold
 * build's shells render without every page's Markdown in memory.
 */
import { sha256 } from '../sha256.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { contentKey } from '../outputs/llms-full-recall.ts';
import { HEADERS_KEY, siteHeaders } from '../outputs/site-headers.ts';
import { pageExportKeys, pageExports, PAGE_EXPORTS_VERSION, siteWideExports, type SiteWidePage } from '../outputs/site-exports.ts';
import type { Publisher } from '../publish.ts';
import type { PageSummary } from '../state/page-summaries.ts';
import type { BuildContext } from './context.ts';
import type { LlmsFullText } from './llms-full.ts';
import type { BuildPlan } from './plan.ts';
import type { SitePages } from './site-pages.ts';

/** What the exports step leaves for the publish step. */
export interface ExportsResult {
  /** Hash of what the pages' own exports read of the configuration (the manifest keeps it). */
  exportsHash: string;
  /** Key → bytes of the site-wide files. */
  siteWide: Map<string, string | Buffer>;
}

/** Emits the site's exports into `publisher`. */
export async function makeExports(ctx: BuildContext, plan: BuildPlan, site: SitePages, { publisher, llms, configHash }: { publisher: Publisher; llms: LlmsFullText; configHash: string }): Promise<ExportsResult> {
  const { config, previous, snapshot, layout, load } = plan;
  const { ordered, nav, dimensions, moves } = site;
  const markdown = await llms.finish(ordered, load);
  // The fields the site-wide files read, not a copy of each summary (10,000 of ~20 fields each).
  const exportPages: SiteWidePage[] = ordered.map((r) => {
    const { urlPath, title, description, updates, seo, hidden } = r.summary;
    return { urlPath, title, description, updates, seo, ...(hidden ? { hidden } : {}), markdown: markdown.get(contentKey(r))! };
  });
  const siteWide = siteWideExports(exportPages, config, {
    nav, moved: moves, ...(dimensions ? { dimensions } : {}), alloc: (size: number) => llms.memory.scratch(size),
  }, llms.segments);

  // llms-full.txt is hashed from where it differs from the one remembered, and emitted before the
  // pages' own exports are made, so its upload (the longest of an edit) runs while they are. No
  // page export has a site-wide file's key (site-paths.ts).
  for (const [key, text] of siteWide) await publisher.emit(key, text, llms.hash(key, text));
  await publisher.emit(HEADERS_KEY, siteHeaders(config));

  // A page's own exports (Markdown, feed) are kept as published when neither the page nor what
  // they read of the configuration changed: an edit makes two of them, not two per page. What
  // they read of the page (cache key, imports, URL) is in its manifest entry, so the manifest
  // records one hash for the configuration's part instead of an input hash per export.
  const exportsHash = sha256(JSON.stringify([PAGE_EXPORTS_VERSION, configHash, config.siteUrl, config.basePath]));
  const exportsKept = previous?.exportsHash === exportsHash;
  for (const record of ordered) {
    const { summary } = record;
    const [markdownKey, feedKey] = exportKeysOf(summary);
    if (exportsKept && site.unchanged(record) && publisher.keep(markdownKey) && publisher.keep(feedKey)) continue;
    for (const [key, text] of pageExports({ ...summary, markdown: (await load(record)).markdown }, config)) await publisher.emit(key, text);
    ctx.collect(1);
  }
  await publishPublicFiles(snapshot, publisher, previous?.files ?? {}, layout.assets);
  return { exportsHash, siteWide };
}

/**
 * Publishes the repository's static files (`public/` at the site root, then the content root's
 * media: see `repo-layout.ts`), after the generated outputs: a file named like one of them
 * (`public/robots.txt`, `public/index.html`) is skipped, so every build publishes one
 * well-defined object per key. Keys under `_folio/` and `_pagefind/` are not published.
 */
export async function publishPublicFiles(
  snapshot: RepoSnapshot, publisher: Publisher, previousFiles: Record<string, string>, assets: ReadonlyMap<string, string>,
): Promise<void> {
  for (const [repoPath, key] of assets) {
    const oid = snapshot.files.get(repoPath);
    // `_folio/` and `_pagefind/` belong to the builder (state, bundle, search): never from the repository.
    if (oid === undefined || publisher.has(key) || key.startsWith('_folio/') || key.startsWith('_pagefind/')) continue;
    // Same blob as last publish: the object is already up, no need to read it.
    if (previousFiles[repoPath] === oid && publisher.keep(key)) continue;
    await publisher.emit(key, await snapshot.read(repoPath));
  }
}

/**
 * The keys of a page's own exports, by summary: a long-lived builder's next build gets the same
 * summary objects for unchanged pages (frozen, from its memory of the summaries), so an edit
 * makes its page's keys instead of every page's.
 */
const exportKeysMemo = new WeakMap<PageSummary, readonly [string, string]>();

function exportKeysOf(summary: PageSummary): readonly [string, string] {
  let keys = exportKeysMemo.get(summary);
  if (!keys) exportKeysMemo.set(summary, keys = pageExportKeys(summary.urlPath));
  return keys;
}
