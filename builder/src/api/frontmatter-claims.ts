/**
 * The operations MDX pages document themselves (`openapi:` frontmatter): a page generated from a
 * document (`api.openapi`, navigation `openapi` keys) for one of them is left out, so an
 * operation has one page, the author's, and no generated twin at another URL.
 *
 * Known before anything compiles: a page found in the cache carries its operation in its summary
 * (`apiOperation`); any other page's frontmatter is read from its source.
 */
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import type { PageRecord } from '../state/page-bodies.ts';
import { operationLabel } from './api-view.ts';
import { readOpenapiFrontmatter } from './frontmatter-ref.ts';
import { SpecCatalog } from './spec-catalog.ts';

/** What {@link claimedOperations} reads. */
export interface ClaimsInput {
  sources: readonly string[];
  records: ReadonlyMap<string, PageRecord>;
  snapshot: RepoSnapshot;
  contentRoot: string;
  /** The generated pages' document: what a page naming no document is taken to name. */
  document: string;
}

/** The `openapi:` value of a source's frontmatter, unquoted; `undefined` when it has none. */
export function frontmatterOpenapi(source: string): string | undefined {
  const head = /^---\r?\n([\s\S]*?)\r?\n---/.exec(source.slice(0, 8192));
  const line = head && /^openapi:[ \t]*(.+?)[ \t]*$/m.exec(head[1]);
  return line ? line[1].replace(/^(["'])(.*)\1$/, '$2') : undefined;
}

/** Source paths of the generated pages (`document#METHOD /path`) that MDX pages claim. */
export async function claimedOperations(input: ClaimsInput): Promise<Set<string>> {
  const { sources, records, snapshot, contentRoot, document } = input;
  const catalog = new SpecCatalog({ snapshot, contentRoot });
  const claimed = new Set<string>();
  for (const p of sources) {
    const summary = records.get(p)?.summary;
    if (summary) {
      if (summary.apiOperation) claimed.add(`${summary.apiOperation.document}#${summary.apiOperation.operation}`);
      continue;
    }
    const value = frontmatterOpenapi(Buffer.from(await snapshot.read(p)).toString('utf8'));
    if (value === undefined) continue;
    const read = readOpenapiFrontmatter(value);
    if ('problem' in read || 'webhook' in read.ref) continue;
    const named = read.file === undefined ? document : catalog.resolve(read.file, p);
    if (named !== undefined) claimed.add(`${named}#${operationLabel(read.ref)}`);
  }
  return claimed;
}
