/**
 * The link check of one build: gathers what links may reach (pages and their ids, published
 * files, site exports, redirect sources) and the links of the pages compiled or reused, and
 * applies `brokenLinks` from docs.json. Its report starts with the pages' other warnings
 * (page-notes.ts), which `brokenLinks` does not govern.
 */
import { urlPathFor } from '../compile/url-path.ts';
import type { ResolvedConfig } from '../config/parse-config.ts';
import { userError } from '../errors.ts';
import { isRedirectPattern } from '../serve/resolve-path.ts';
import type { PageRecord } from '../state/page-bodies.ts';
import type { PageSummary } from '../state/page-summaries.ts';
import { pageNoteLines } from './page-notes.ts';
import { formatBrokenLink, type BrokenLink, type LinkChecker, type LinkSource } from './link-check.ts';

/** Broken links listed in the error of a failed build; the rest are counted. */
const MAX_LISTED = 50;

/** What a build knows when it checks links. */
export interface SiteLinkInput {
  config: ResolvedConfig;
  /** Every page source of the build, failed ones included. */
  sources: readonly string[];
  /** Pages with a published version, by source path (a failed page maps to its previous version). */
  records: ReadonlyMap<string, PageRecord>;
  /** Source paths of pages that failed to compile in this build. */
  failed: ReadonlySet<string>;
  /** Keys of the static files (`public/`, root assets) and site-wide exports this build publishes (each page's own exports are implied: link-check.ts). */
  fileKeys: Iterable<string>;
  /** Pages without a source file of their own (API reference pages): reachable, with their ids. */
  generated?: readonly PageRecord[];
  /** Other URL paths the site serves: old paths of moved pages, fallbacks of languages and versions. */
  otherPaths?: Iterable<string>;
}

/** One line per page warning and per broken link, and how many links were examined. */
export interface SiteLinkReport { lines: string[]; checked: number }

/**
 * Checks the links of a build with `checker` (reused across builds of a site to re-check only
 * what can have changed).
 *
 * @throws BuilderError `broken_links` (kind `user`) when docs.json sets `brokenLinks: "error"`
 *   and a link is broken: the message lists every one, `file:line:column: message`.
 */
export function checkSiteLinks(input: SiteLinkInput, checker: LinkChecker): SiteLinkReport {
  const { config, records, failed } = input;
  const notes = pageNoteLines(input.sources, records, failed);
  if (config.brokenLinks === 'off') return { lines: notes, checked: 0 };
  const pages = new Map<string, ReadonlySet<string> | undefined>();
  const sources: LinkSource[] = [];
  const unpublished = new Set<string>();
  for (const p of input.sources) {
    const record = records.get(p);
    // A failed page still exists (its error is reported on its own), but its ids are unknown;
    // without a previous version it has no exports either.
    if (!record || failed.has(p)) {
      const urlPath = record?.summary.urlPath ?? urlPathFor(p, config.contentRoot);
      pages.set(urlPath, undefined);
      if (!record) unpublished.add(urlPath);
      continue;
    }
    const { summary, cacheKey } = record;
    pages.set(summary.urlPath, anchorsOf(summary));
    sources.push({ sourcePath: p, urlPath: summary.urlPath, key: cacheKey, links: summary.links });
  }
  for (const { summary } of input.generated ?? []) pages.set(summary.urlPath, anchorsOf(summary));
  const files = new Set<string>(input.otherPaths);
  for (const key of input.fileKeys) files.add(`/${key}`);
  for (const r of config.redirects ?? []) files.add(r.source.length > 1 ? r.source.replace(/\/+$/, '') : r.source);
  const redirectPatterns = (config.redirects ?? []).map((r) => r.source).filter(isRedirectPattern);
  const report = checker.check(sources, { pages, files, unpublished, basePath: config.basePath, ...(redirectPatterns.length ? { redirectPatterns } : {}) });
  const lines = groupedLines(report.broken);
  if (lines.length > 0 && config.brokenLinks === 'error') {
    const count = lines.length === 1 ? '1 broken link' : `${lines.length} broken links`;
    const shown = lines.length > MAX_LISTED ? [...lines.slice(0, MAX_LISTED), `${lines.length - MAX_LISTED} more not shown`] : lines;
    throw userError('broken_links', `${count}; docs.json sets brokenLinks to "error":\n${shown.join('\n')}`);
  }
  return { lines: [...notes, ...lines], checked: report.checked };
}

/**
 * One line per broken target: a missing file or anchor written many times (a generated page's
 * 580 `<use href="assets/icons.svg#…">`) is reported once, where it is first written, with how
 * many more times and in how many files: `…; expected a page, a file of the site or a redirect source (and 579 more times, in 2 files)`.
 */
function groupedLines(broken: readonly BrokenLink[]): string[] {
  const groups = new Map<string, { first: BrokenLink; count: number; files: Set<string> }>();
  for (const b of broken) {
    const group = groups.get(b.message);
    if (group) { group.count++; group.files.add(b.file); } else groups.set(b.message, { first: b, count: 1, files: new Set([b.file]) });
  }
  return [...groups.values()].map(({ first, count, files }) => {
    if (count === 1) return formatBrokenLink(first);
    const more = `${count - 1} more ${count === 2 ? 'time' : 'times'}`;
    return `${formatBrokenLink(first)} (and ${more}${files.size > 1 ? `, in ${files.size} files` : ''})`;
  });
}

/**
 * A page's ids as a set, made once per summary: a long-lived builder's next build has the same
 * summary objects for unchanged pages, and the checker compares ids by set (link-check.ts).
 */
const anchorSets = new WeakMap<PageSummary, ReadonlySet<string>>();
function anchorsOf(summary: PageSummary): ReadonlySet<string> {
  let ids = anchorSets.get(summary);
  if (!ids) anchorSets.set(summary, ids = new Set(summary.anchors ?? []));
  return ids;
}
