import type { ObjectStore } from './store/object-store.ts';
import type { PublishedObject } from './publish.ts';
import type { LlmsFullIndex } from './outputs/llms-full-recall.ts';
import { decodeJson, encodeJson, GZIP_JSON } from './cache/gzip-json.ts';

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
  /** Keys of the objects this page produced (HTML, Markdown export, feed). */
  outputs: string[];
}

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
  /** Object key → hash of everything its rendering read; equal hash means re-rendering is skipped. */
  inputs: Record<string, string>;
  /** Object key → hash and size of its published bytes. */
  objects: Record<string, PublishedObject>;
  /** sha256 of the page summaries object written with this manifest (rewritten only when it changes). */
  summariesHash?: string;
  /** Where each page's Markdown lies (byte offsets) in the published `llms-full.txt` files (outputs/llms-full-recall.ts). */
  llmsBytes?: LlmsFullIndex;
  /** Key of the custom stylesheet linked by this build (css/custom-css.ts), kept after a downgrade. */
  customCss?: string;
}

/** The manifest of the site in `store`, or `undefined` before the first publish. */
export async function readManifest(store: ObjectStore): Promise<BuildManifest | undefined> {
  const parsed = await decodeJson<BuildManifest>(await store.get(MANIFEST_KEY));
  return parsed?.version === 1 ? parsed : undefined;
}

/** Writes the manifest; the last write of a publish. */
export async function writeManifest(store: ObjectStore, manifest: BuildManifest): Promise<void> {
  await store.put(MANIFEST_KEY, await encodeJson(manifest), { contentType: GZIP_JSON, cacheControl: 'no-store' });
}
