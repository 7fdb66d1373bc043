import type { ObjectStore } from '../store/object-store.ts';
import type { PublishedObject } from '../publish.ts';
import type { UtilitiesState } from '../outputs/tailwind-css.ts';
import { decodeJson, encodeJson, GZIP_JSON } from '../cache/gzip-json.ts';
import { deleteUnreferenced, readBucketedMap, sameJson, writeBucketedMap, type StoredMap } from '../cache/bucketed-map.ts';

/**
 * Prefix of the builder's own state (manifest, page summaries, page cache) in a site's store.
 * Never part of the site: the control plane keeps these keys outside the public prefix (see
 * its job object routes), and the site server refuses them.
 */
export const STATE_PREFIX = '_folio/cache/';
/** Key of the build manifest in the site's store. */
export const MANIFEST_KEY = `${STATE_PREFIX}manifest.json.gz`;
/** Prefix of the per-page cache in the site's store. */
export const CACHE_PREFIX = `${STATE_PREFIX}pages/`;
/** Prefix of the manifest's buckets (cache/bucketed-map.ts). */
const BUCKETS_PREFIX = `${STATE_PREFIX}manifest/`;
/** The manifest's maps that grow with the site: stored in buckets, so an edit rewrites a few. */
const BUCKETED = ['files', 'pages', 'inputs', 'objects'] as const;
type Bucketed = typeof BUCKETED[number];

/** What the manifest remembers of one page. */
export interface ManifestPage {
  /** Blob id of the source this build published (the previous one when `failed`). */
  blob: string;
  /** Page cache key of the published version. */
  cacheKey: string;
  /**
   * Blob ids of the snippets the published version imported. The cache key follows the page's
   * own blob only, so a snippet edit changes this and not the key.
   */
  deps?: Record<string, string>;
  urlPath: string;
  /** Content version label when not `latest` (a page of a non-default version, see nav/dimensions.ts). */
  version?: string;
  /** True when this build failed to compile the page and kept its previous version. */
  failed?: boolean;
}

/**
 * The entry of a page whose fields are these: `before` (the previous manifest's entry) itself when
 * it records the same, so the manifest's write passes it by identity and a kept builder's edit
 * allocates no entry for its unchanged pages; else a new one.
 *
 * The page's outputs (shell, Markdown export, feed) are not listed: their keys follow from its
 * URL (outputs/site-paths.ts) and nothing read them back. Listed, they were 30,000 strings of a
 * 10,000-page site's state, parsed by every build in a fresh process. An entry written with them
 * (before this) is replaced once, as a field the build no longer writes.
 */
export function manifestPage(before: ManifestPage | undefined, page: ManifestPage): ManifestPage {
  const { blob, cacheKey, urlPath, version, deps, failed } = page;
  if (before && before.blob === blob && before.cacheKey === cacheKey && before.urlPath === urlPath && before.version === version
    && before.failed === failed && (before.deps === deps || sameJson(before.deps, deps))
    && Object.keys(before).length === 3 + Number(version !== undefined) + Number(deps !== undefined) + Number(failed !== undefined)) return before;
  return { blob, cacheKey, urlPath, ...(version !== undefined ? { version } : {}), ...(deps !== undefined ? { deps } : {}), ...(failed !== undefined ? { failed } : {}) };
}

/**
 * The manifest's `files` for this commit's blobs by repository path, and the paths whose blob is
 * not the one `previous` records (added, changed, removed): the manifest's write compares only
 * those. `previous` itself when no blob changed (a rebuild of the same commit).
 */
export function manifestFiles(blobs: ReadonlyMap<string, string>, previous: Readonly<Record<string, string>> | undefined): { files: Record<string, string>; changed: string[] } {
  const changed: string[] = [];
  if (!previous) return { files: Object.fromEntries(blobs), changed };
  let kept = 0;
  for (const [repoPath, blob] of blobs) {
    if (!Object.hasOwn(previous, repoPath)) changed.push(repoPath);
    else if (kept++, previous[repoPath] !== blob) changed.push(repoPath);
  }
  const before = Object.keys(previous);
  if (kept < before.length) for (const repoPath of before) if (!blobs.has(repoPath)) changed.push(repoPath);
  return { files: changed.length === 0 ? previous : Object.fromEntries(blobs), changed };
}

/** Object key of an `llms-full.txt` → `[content key, start, length]` (bytes) of each page's Markdown in it. */
export type LlmsFullIndex = Record<string, Array<[contentKey: string, start: number, length: number]>>;

/**
 * The state of a published site (`MANIFEST_KEY`), written last by every publish. It drives
 * the next build: which pages are cached, which objects exist with which hash, which shells were
 * rendered from which inputs.
 */
export interface BuildManifest {
  version: 1;
  commit?: string;
  /** sha256 of docs.json's bytes. */
  configHash: string;
  compilerVersion: string;
  templateVersion: string;
  /** Every repository file's blob id, so a builder without the previous commit can still diff. */
  files: Record<string, string>;
  /** Source path → page. */
  pages: Record<string, ManifestPage>;
  /** Object key → hash of everything its rendering read; equal hash means re-rendering is skipped (shells and the 404 page). */
  inputs: Record<string, string>;
  /**
   * Hash of what every page's own exports (Markdown, feed) read besides the page: with the same
   * hash, a page whose entry in `pages` has the same cache key, imports and URL keeps its exports
   * as published. Absent before this field (and so every export made once again: unchanged bytes
   * are not uploaded).
   */
  exportsHash?: string;
  /** Object key → hash and size of its published bytes. */
  objects: Record<string, PublishedObject>;
  /** sha256 of the page summaries object written with this manifest (rewritten only when it changes). */
  summariesHash?: string;
  /** Where each page's Markdown lies (byte offsets) in the published `llms-full.txt` files (outputs/llms-full-recall.ts). */
  llmsBytes?: LlmsFullIndex;
  /** Key of the custom stylesheet linked by this build (css/custom-css.ts), kept after a downgrade. */
  customCss?: string;
  /** The Tailwind utilities sheet of this build and what it was made from (outputs/tailwind-css.ts). */
  utilities?: UtilitiesState;
  /** How the maps were stored, set by `readManifest`: the next write keeps unchanged buckets. */
  stored?: Record<Bucketed, StoredMap>;
}

/** The object at `MANIFEST_KEY`: the manifest with its large maps replaced by their buckets' keys. */
type StoredManifest = Omit<BuildManifest, 'version' | Bucketed | 'stored'> & { version: 2 } & Record<Bucketed, StoredMap>;

/**
 * The manifest of the site in `store`, or `undefined` before the first publish (or when a bucket
 * it lists is lost: the next build then starts over, as after a lost manifest). Its maps' values
 * are frozen and shared with the process's memory of the buckets.
 */
export async function readManifest(store: ObjectStore): Promise<BuildManifest | undefined> {
  const parsed = await decodeJson<StoredManifest | BuildManifest>(await store.get(MANIFEST_KEY));
  // Version 1 held the maps inline (sites published before buckets): read as it is.
  if (parsed?.version === 1) return parsed;
  if (parsed?.version !== 2 || !BUCKETED.every((name) => Array.isArray(parsed[name]))) return undefined;
  const maps = await Promise.all(BUCKETED.map((name) => readBucketedMap(store, parsed[name])));
  if (maps.some((m) => m === undefined)) return undefined;
  const stored = Object.fromEntries(BUCKETED.map((name) => [name, parsed[name]])) as Record<Bucketed, StoredMap>;
  const [files, pages, inputs, objects] = maps as [BuildManifest['files'], BuildManifest['pages'], BuildManifest['inputs'], BuildManifest['objects']];
  return { ...parsed, version: 1, files, pages, inputs, objects, stored };
}

/** Per map, the keys at which it may differ from `previous`'s (see `writeBucketedMap`); a map left out is compared whole. */
export type ManifestChanges = Partial<Record<Bucketed, Iterable<string>>>;

/** How `writeManifest` writes. */
export interface ManifestWrite {
  /** Per map, the keys at which it may differ from the previous manifest's (see `ManifestChanges`). */
  changed?: ManifestChanges;
  /** Settled once the site's objects are up (its uploads): the manifest itself is written only then. */
  ready?: Promise<unknown>;
  /**
   * Fields of the manifest known once other state is written (the page summaries' hash): merged
   * into it when they are, so that state is written while the manifest's buckets are.
   */
  fields?: Promise<Pick<BuildManifest, 'summariesHash'>>;
}

/**
 * Writes the manifest, the last write of a publish: the buckets that changed since `previous`,
 * then (once `ready` is settled and `fields` known) the manifest, then the deletion of the
 * buckets it no longer lists.
 */
export async function writeManifest(store: ObjectStore, manifest: BuildManifest, previous?: BuildManifest, { changed = {}, ready, fields }: ManifestWrite = {}): Promise<void> {
  const { stored: _stored, version: _version, ...rest } = manifest;
  const write = (name: Bucketed) => writeBucketedMap<unknown>(store, BUCKETS_PREFIX, manifest[name], previous?.stored?.[name], changed[name]);
  const lists = await Promise.all(BUCKETED.map(write));
  // The manifest names the new site only once the site is up (`ready`: its uploads); the buckets,
  // named by nothing until then, are written while they run. A build that fails between leaves
  // them unnamed (a few small objects under the state prefix, rewritten by a later build whose
  // buckets have the same bytes).
  const [, late] = await Promise.all([ready, fields]);
  const [files, pages, inputs, objects] = lists;
  const root: StoredManifest = { ...rest, ...late, version: 2, files, pages, inputs, objects };
  await store.put(MANIFEST_KEY, await encodeJson(root), { contentType: GZIP_JSON, cacheControl: 'no-store' });
  await deleteUnreferenced(store, BUCKETED.map((name) => previous?.stored?.[name]), lists);
}
