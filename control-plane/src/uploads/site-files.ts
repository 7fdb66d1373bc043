/**
 * Where uploaded files live in the site store: under the project's site prefix
 * (`sites/<projectId>/`), in `_folio/`, which the builder's publisher never deletes (it removes
 * only objects its own manifest lists). Names carry a content hash, so objects are immutable
 * and the CDN may cache them for a year.
 */
import { createHash } from 'node:crypto';
import { IMMUTABLE, type ObjectStore } from '@folio/builder';
import { internal } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import type { DetectedFile } from './detect-type.ts';
import { sitePrefix } from '../sites/bucket-prefixes.ts';

/** The site store from `deps.services.siteStore`; its absence is a set-up error (500). */
export function siteStore(deps: Deps): ObjectStore {
  const store = deps.services.siteStore;
  if (!store) throw internal(new Error('services.siteStore is not configured'));
  return store;
}

/** First 12 hex digits of the SHA-256 of `bytes`. */
export function shortHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 12);
}

/** The store key of the site path `urlPath` (`/_folio/logo/a.svg`) of `projectId`. */
export function siteKey(projectId: string, urlPath: string): string {
  return sitePrefix(projectId) + urlPath.replace(/^\//, '');
}

/**
 * Stores `file` at the site path `urlPath` of the project (root-relative, starting with
 * `/_folio/`), with its detected Content-Type and immutable caching.
 */
export async function putSiteFile(deps: Deps, projectId: string, urlPath: string, file: DetectedFile): Promise<void> {
  await siteStore(deps).put(siteKey(projectId, urlPath), file.bytes, { contentType: file.contentType, cacheControl: IMMUTABLE });
}

/** Deletes site paths previously stored by `putSiteFile`; paths outside `prefix` are left alone. */
export async function deleteSiteFiles(deps: Deps, projectId: string, urlPaths: (string | null | undefined)[], prefix: string): Promise<void> {
  const keys = [...new Set(urlPaths.filter((p): p is string => typeof p === 'string' && p.startsWith(prefix) && !p.includes('..')))]
    .map((p) => siteKey(projectId, p));
  if (keys.length > 0) await siteStore(deps).delete(keys);
}
