/**
 * The site's pages once compiled, as every later step reads them: in order, with their
 * navigation (a sidebar per language and version), the pages moved since the last publish, the
 * link check (a broken link fails the build here when `brokenLinks` is `"error"`, before anything
 * is uploaded), and each page's manifest entry. Also what `onPages` is told.
 */
import { sameJson } from '../cache/bucketed-map.ts';
import { urlPathFor } from '../compile/index.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { detectRenames } from '../git/detect-renames.ts';
import { LinkChecker } from '../links/link-check.ts';
import { checkSiteLinks } from '../links/site-links.ts';
import type { DimensionNav } from '../nav/dimension-nav.ts';
import { versionLabel } from '../nav/dimensions.ts';
import { rememberedSiteNav } from '../nav/remembered-nav.ts';
import { nextMoves, type Moves } from '../outputs/page-moves.ts';
import { siteWideKeys } from '../outputs/site-exports.ts';
import { manifestPage, type BuildManifest, type ManifestPage } from '../state/manifest.ts';
import type { PageRecord } from '../state/page-bodies.ts';
import type { PageSummary } from '../state/page-summaries.ts';
import type { NavItem } from '@folio/site-template/shared/types.ts';
import type { CompiledPage } from '../types.ts';
import { UPSERT_BATCH, type PageChanges, type PageUpsert } from './context.ts';
import type { CompileResult } from './compile.ts';
import type { BuildPlan } from './plan.ts';

/** See the module comment. */
export interface SitePages {
  /** Every page of the site: the authors' in path order, then the API reference pages in the document's order. */
  ordered: PageRecord[];
  byUrl: Map<string, PageRecord>;
  nav: NavItem[];
  dimensions: DimensionNav | undefined;
  /** Pages served by fallback in another language or version: the record shown, at `urlPath`. */
  fallbacks: { record: PageRecord; urlPath: string }[];
  /** Old URL → new URL of the pages moved, kept across syncs; `moved`: those renamed by this build. */
  moves: Moves;
  moved: Array<{ from: string; to: string }>;
  links: { lines: string[]; checked: number };
  failed: Set<string>;
  /** Whether the previous build published this record as it is (same cache key, imports and URL). */
  unchanged(record: PageRecord): boolean;
  manifestPages: Record<string, ManifestPage>;
  /** Source paths whose manifest entry is not the previous one. */
  pagesChanged: string[];
  /** Cache key → summary, as the next build reads them. */
  nextSummaries: Map<string, PageSummary>;
}

/** Puts the compiled site together (see the module comment). */
export async function sitePages(plan: BuildPlan, compiled: CompileResult, linkChecker = new LinkChecker()): Promise<SitePages> {
  const { config, snapshot, sources, contentRoot, previous, api, apiRecords, layout } = plan;
  const { records, errors, failed } = compiled;
  // API reference pages in the document's order, failed ones whose previous version stays live
  // (found by source path) in their place.
  const apiBySource = new Map(apiRecords.map((r) => [r.summary.sourcePath, r]));
  const apiOrdered = (api?.order ?? []).flatMap((p) => {
    const record = apiBySource.get(p) ?? (errors.has(p) ? records.get(p) : undefined);
    return record ? [record] : [];
  });
  const ordered = [...sources.filter((p) => records.has(p)).map((p) => records.get(p)!), ...apiOrdered];
  const pageSummaries = ordered.map((r) => r.summary);
  // Languages and versions: a sidebar per combination; the default one is the site's `nav`.
  const { nav, dimensions } = rememberedSiteNav(pageSummaries, config, sources);
  const fallbacks = [...dimensions?.fallbacks.values() ?? []].flatMap((f) => (records.has(f.from) ? [{ record: records.get(f.from)!, urlPath: f.urlPath }] : []));
  // Pages renamed since the last publish redirect from their old URLs (kept across syncs).
  const renamed = await pageRenames(previous, sources, snapshot, contentRoot);
  const moves = nextMoves(plan.previousMoves, renamed, new Set(pageSummaries.map((s) => s.urlPath)), new Set((config.redirects ?? []).map((r) => r.source)));
  const moved = renamed.filter((r) => moves[r.from] === r.to);
  const byUrl = new Map(ordered.map((r) => [r.summary.urlPath, r]));
  const previousPage = (sourcePath: string) => (previous && Object.hasOwn(previous.pages, sourcePath) ? previous.pages[sourcePath] : undefined);
  const unchanged = ({ summary, cacheKey }: PageRecord) => {
    const before = previousPage(summary.sourcePath);
    return before !== undefined && samePublished(before, { cacheKey, urlPath: summary.urlPath, deps: summary.deps });
  };
  // Before anything is uploaded: with brokenLinks "error" a broken link fails the build here.
  const links = checkSiteLinks({
    config, sources, records, failed, fileKeys: [...layout.assets.values(), ...siteWideKeys(dimensions)],
    generated: apiRecords, otherPaths: [...Object.keys(moves), ...fallbacks.map((f) => f.urlPath)],
  }, linkChecker);
  const manifestPages: Record<string, ManifestPage> = {};
  // Without languages or versions every page is the default version's: `latest`.
  const versionOf = (urlPath: string) => (dimensions ? versionLabel(urlPath, dimensions.dims) : 'latest');
  const nextSummaries = new Map<string, PageSummary>();
  const pagesChanged: string[] = [];
  for (const { summary, cacheKey } of ordered) {
    const p = summary.sourcePath;
    const isFailed = failed.has(p);
    const version = versionOf(summary.urlPath);
    const before = previousPage(p);
    const entry = manifestPage(before, {
      // An API reference page's source is its OpenAPI document (`document#METHOD /path`).
      blob: isFailed ? previous!.pages[p].blob : snapshot.files.get(p) ?? snapshot.files.get(p.slice(0, p.indexOf('#'))) ?? api!.sourceId,
      cacheKey, urlPath: summary.urlPath, version: version !== 'latest' ? version : undefined,
      deps: Object.keys(summary.deps).length ? summary.deps : undefined,
      failed: isFailed ? true : undefined,
    });
    manifestPages[p] = entry;
    // Unchanged entries are the previous ones: the manifest's write compares only the others.
    if (entry !== before) pagesChanged.push(p);
    nextSummaries.set(cacheKey, summary);
  }
  return { ordered, byUrl, nav, dimensions, fallbacks, moves, moved, links, failed, unchanged, manifestPages, pagesChanged, nextSummaries };
}

/**
 * Pages renamed since the previous publish, as URL paths: Git's rename detection between the
 * previous manifest's pages that are gone and this commit's pages that are new.
 */
async function pageRenames(previous: BuildManifest | undefined, sources: readonly string[], snapshot: RepoSnapshot, contentRoot: string): Promise<Array<{ from: string; to: string }>> {
  if (!previous) return [];
  const added = new Map(sources.filter((p) => !previous.pages[p]).map((p) => [p, snapshot.files.get(p)!]));
  // No new page (most edits): nothing moved, and the previous pages need not be listed.
  if (!added.size) return [];
  const now = new Set(sources);
  // API reference pages ("spec#GET /x") have no file of their own: they never move by rename.
  const deleted = new Map(Object.entries(previous.pages).filter(([p]) => !now.has(p) && !p.includes('#')).map(([p, page]) => [p, page.blob]));
  if (!deleted.size) return [];
  const renames = await detectRenames(deleted, added, snapshot.readBlob?.bind(snapshot));
  return renames.map((r) => ({ from: previous.pages[r.from].urlPath, to: urlPathFor(r.to, contentRoot) }));
}

/** Pages whose published version differs from the previous manifest's, and the removed ones. */
export function pageChanges(plan: BuildPlan, site: SitePages): PageChanges {
  const { previous, snapshot, load } = plan;
  const { ordered, manifestPages: pages } = site;
  const changed = ordered.filter((record) => {
    const before = previous?.pages[record.summary.sourcePath];
    const now = pages[record.summary.sourcePath];
    // An unchanged page's entry is the previous one itself (manifestPage).
    return !(before === now || (before && before.version === now.version && samePublished(before, now)));
  });
  const upsertOf = async (record: PageRecord): Promise<PageUpsert> => {
    const now = pages[record.summary.sourcePath];
    const page: CompiledPage = await load(record);
    // An API reference page has no file of its own: its source is its Markdown.
    const bytes = !page.api && snapshot.files.get(page.sourcePath) === now.blob ? await snapshot.read(page.sourcePath) : undefined;
    return { page, source: page.api ? page.markdown : bytes ? Buffer.from(bytes).toString('utf8') : '', version: now.version ?? 'latest' };
  };
  // Removed: a previous page whose URL no page has now. Most are still at their source path, with
  // their URL: only the others are looked for among every page's URL.
  const moved: Array<{ sourcePath: string; urlPath: string }> = [];
  const before = previous?.pages ?? {};
  for (const sourcePath in before) {
    const { urlPath } = before[sourcePath];
    if (!(Object.hasOwn(pages, sourcePath) && pages[sourcePath].urlPath === urlPath)) moved.push({ sourcePath, urlPath });
  }
  const live = moved.length ? new Set(Object.values(pages).map((p) => p.urlPath)) : undefined;
  const removed = moved.filter((p) => !live!.has(p.urlPath));
  return {
    async* upserted(size = UPSERT_BATCH) {
      for (let i = 0; i < changed.length; i += size) {
        const batch: PageUpsert[] = [];
        for (const record of changed.slice(i, i + size)) batch.push(await upsertOf(record));
        yield batch;
      }
    },
    removed,
  };
}

/** Whether a manifest entry records the page as published from the same source (cache key), imports and URL. */
function samePublished(before: ManifestPage, now: Pick<ManifestPage, 'cacheKey' | 'urlPath' | 'deps'>): boolean {
  return before.cacheKey === now.cacheKey && before.urlPath === now.urlPath && sameDeps(before.deps, now.deps);
}

/** Whether two pages imported the same files (a manifest entry leaves out empty imports, a summary has `{}`). */
function sameDeps(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  return a === b || (isEmpty(a) && isEmpty(b)) || sameJson(a, b);
}

function isEmpty(deps: Record<string, string> | undefined): boolean {
  for (const _ in deps) return false;
  return true;
}
