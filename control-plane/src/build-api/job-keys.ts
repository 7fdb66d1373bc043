/**
 * Where a build's object keys live in the bucket. A builder publishes with keys relative to its
 * site (`index.html`, `_pagefind/…`, `_folio/cache/…`); the site's files go under the public
 * prefix of its site (production's `sites/<project id>/` or a preview's), which the site server
 * and a CDN serve, while the builder's own state (`_folio/cache/`: manifest, page summaries, page
 * cache) goes under the site's state prefix, which nothing serves. The builder does not know the
 * difference, nor whether it builds production or a preview (sites/bucket-prefixes.ts).
 */
import { CACHE_PREFIX, STATE_PREFIX, SUMMARIES_KEY } from '@folio/builder';
import type { BuildPrefixes } from '../sites/bucket-prefixes.ts';

/** The bucket key of the job key `key` (relative to the site) of a build with `prefixes`. */
export function bucketKeyOf(prefixes: BuildPrefixes, key: string): string {
  return key.startsWith(STATE_PREFIX) ? prefixes.state + key.slice(STATE_PREFIX.length) : prefixes.site + key;
}

/**
 * Where a read of `key` looks when the build's own state lacks it: production's state for a
 * preview's page cache entries and page summaries, which are keyed by content (a page's blob and
 * the compiler and template versions), so whatever production cached is right for the preview
 * too. The manifest is never shared: it says which objects the preview's own site holds.
 */
export function sharedKeyOf(prefixes: BuildPrefixes, key: string): string | undefined {
  if (!prefixes.sharedState) return undefined;
  if (!key.startsWith(CACHE_PREFIX) && key !== SUMMARIES_KEY) return undefined;
  return prefixes.sharedState + key.slice(STATE_PREFIX.length);
}

/**
 * The bucket prefixes to list for the job prefix `sub`, each with the function that turns a bucket
 * key back into a job key: the state prefix when `sub` is inside it, the site prefix when it is
 * outside, both when `sub` contains it (e.g. `''` or `_folio/`).
 */
export function listingsOf(prefixes: BuildPrefixes, sub: string): Array<{ prefix: string; toJobKey(bucketKey: string): string }> {
  const { site, state } = prefixes;
  const fromSite = { prefix: site + sub, toJobKey: (k: string) => k.slice(site.length) };
  const fromState = (inner: string) => ({ prefix: state + inner, toJobKey: (k: string) => STATE_PREFIX + k.slice(state.length) });
  if (sub.startsWith(STATE_PREFIX)) return [fromState(sub.slice(STATE_PREFIX.length))];
  return STATE_PREFIX.startsWith(sub) ? [fromSite, fromState('')] : [fromSite];
}
