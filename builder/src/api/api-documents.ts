/**
 * The generated API reference pages of every document the site names: `api.openapi` and each
 * navigation `openapi` key (tabs, groups, anchors, versions…), as Mintlify reads them: each
 * document's operations are pages (`api-pages.ts`), and each channel of a navigation `asyncapi` key's document, and a group whose `openapi` names a document
 * lists that document's pages (nav/build-nav.ts). A document named twice is read once; a page
 * URL an earlier document (or an MDX page) already has is left to it.
 */
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import type { PageRecord } from '../state/page-bodies.ts';
import { apiPages, type ApiPagesOptions, type ApiPagesResult } from './api-pages.ts';
import { claimedOperations } from './frontmatter-claims.ts';
import { specSource, type FetchUrl } from './spec-source.ts';

/** What {@link documentsPages} reads besides the documents. */
export interface DocumentsPagesInput extends Omit<ApiPagesOptions, 'source' | 'claimed'> {
  snapshot: RepoSnapshot;
  contentRoot: string;
  fetchUrl?: FetchUrl;
  /** The site's MDX pages and the plan's cache hits: their `openapi:` frontmatter claims operations. */
  sources: readonly string[];
  records: ReadonlyMap<string, PageRecord>;
}

/**
 * The pages of `documents` (as written, in order), one result for all; `undefined` without any.
 *
 * @throws BuilderError `invalid_openapi` when a document cannot be found or read.
 */
export async function documentsPages(documents: readonly string[], input: DocumentsPagesInput, asyncapi: readonly string[] = []): Promise<ApiPagesResult | undefined> {
  const { snapshot, contentRoot, fetchUrl, sources, records, ...options } = input;
  const taken = new Set(options.taken);
  const read = new Set<string>();
  const results: ApiPagesResult[] = [];
  const all = [...documents.map((written) => ({ written, kind: 'openapi' as const })), ...asyncapi.map((written) => ({ written, kind: 'asyncapi' as const }))];
  for (const { written, kind } of all) {
    const source = { ...await specSource(written, snapshot, fetchUrl, contentRoot), kind };
    if (read.has(source.name)) continue;
    read.add(source.name);
    // An operation an MDX page documents (`openapi:` frontmatter) is that page's alone.
    const claimed = kind === 'asyncapi' ? new Set<string>() : await claimedOperations({ sources, records, snapshot, contentRoot, document: source.name });
    const result = await apiPages({ ...options, source, taken: new Set(taken), claimed });
    for (const r of result.records) taken.add(r.summary.urlPath);
    results.push(result);
  }
  if (!results.length) return undefined;
  return {
    records: results.flatMap((r) => r.records), generated: results.reduce((n, r) => n + r.generated, 0),
    setKey: results.map((r) => r.setKey).join(','), sourceId: results[0].sourceId,
    failures: results.flatMap((r) => r.failures), order: results.flatMap((r) => r.order),
  };
}
