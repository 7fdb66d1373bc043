/**
 * Where a build's object keys live in the bucket. A builder publishes with keys relative to its
 * site (`index.html`, `_pagefind/…`, `_folio/cache/…`); the site's files go under the public
 * prefix `sites/<project id>/`, which the site server and a CDN serve, while the builder's own
 * state (`_folio/cache/`: manifest, page summaries, page cache) goes under `state/<project id>/`,
 * which nothing serves. The builder does not know the difference.
 */
import { STATE_PREFIX } from '@folio/builder/manifest.ts';
import { sitePrefix, statePrefix } from '../sites/bucket-prefixes.ts';

/** The bucket key of the job key `key` (relative to the site) of `projectId`. */
export function bucketKeyOf(projectId: string, key: string): string {
  return key.startsWith(STATE_PREFIX) ? statePrefix(projectId) + key.slice(STATE_PREFIX.length) : sitePrefix(projectId) + key;
}

/**
 * The bucket prefixes to list for the job prefix `sub`, each with the function that turns a bucket
 * key back into a job key: the state prefix when `sub` is inside it, the site prefix when it is
 * outside, both when `sub` contains it (e.g. `''` or `_folio/`).
 */
export function listingsOf(projectId: string, sub: string): Array<{ prefix: string; toJobKey(bucketKey: string): string }> {
  const site = sitePrefix(projectId);
  const state = statePrefix(projectId);
  const fromSite = { prefix: site + sub, toJobKey: (k: string) => k.slice(site.length) };
  const fromState = (inner: string) => ({ prefix: state + inner, toJobKey: (k: string) => STATE_PREFIX + k.slice(state.length) });
  if (sub.startsWith(STATE_PREFIX)) return [fromState(sub.slice(STATE_PREFIX.length))];
  return STATE_PREFIX.startsWith(sub) ? [fromSite, fromState('')] : [fromSite];
}
