/**
 * Where `api.openapi` points: a file of the commit being built (a path from the content root,
 * the folder of docs.json, else from the repository root; a leading `/` or `./` is allowed), or an http(s) URL
 * fetched at build time through the `fetchUrl` the caller provides. The deployment worker's
 * fetcher asks the control plane, whose fetcher refuses private and loopback addresses, so a
 * document URL cannot reach the platform's own network.
 */
import { userError } from '../errors.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { confinePath } from '../limits/confine-path.ts';
import type { ApiSpecSource } from './api-pages.ts';
import { sha256 } from '../sha256.ts';

/** Downloads a document named by URL; rejects with a `BuilderError` when it cannot. */
export type FetchUrl = (url: string) => Promise<Uint8Array>;

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

/**
 * The document `openapi` names.
 *
 * @throws BuilderError `invalid_openapi` for a path naming no file, or a URL when the build has no fetcher.
 */
export async function specSource(openapi: string, snapshot: RepoSnapshot, fetchUrl?: FetchUrl, contentRoot = ''): Promise<ApiSpecSource> {
  if (/^https?:\/\//i.test(openapi)) {
    if (!fetchUrl) throw userError('invalid_openapi', `api.openapi: Unexpected URL "${openapi}": this build cannot fetch documents; expected the path of a file in the repository`);
    const bytes = await fetchUrl(openapi);
    const id = sha256(bytes);
    return { name: openapi, id, read: async () => text(bytes) };
  }
  const bare = openapi.replace(/^\.?\/+/, '');
  // A docs.json in a folder (a monorepo's docs/) names files of that folder, as Mintlify reads it.
  const repoPath = [contentRoot + bare, bare].map((p) => confinePath(p)).find((p) => snapshot.files.has(p)) ?? confinePath(bare);
  const oid = snapshot.files.get(repoPath);
  if (oid === undefined) throw userError('invalid_openapi', `api.openapi: Unexpected "${openapi}"; expected the path of a file in the repository or an http(s) URL`, { file: 'docs.json' });
  return { name: repoPath, id: oid, read: async () => text(await snapshot.read(repoPath)) };
}
