/**
 * Analytics beacons: small JSON bodies sent with `navigator.sendBeacon` to the site's own host,
 * which records them for the site's project. No cookie, no identifier: the server counts
 * visitors from a daily-rotating hash it never stores the inputs of.
 */

import { folioUrl, sitePath } from './site-base.ts';

/** Page feedback (`{ path, helpful }`); posted under the site's base path ({@link folioUrl}). */
export const FEEDBACK_URL = '/_folio/feedback';
/** Searches (`{ type: 'search', query, results, path }`) and time on page (`{ type: 'engagement', path, ms }`). */
export const EVENT_URL = '/_folio/event';
/** A search is reported once the visitor stops typing for this long (not once per keystroke). */
export const SEARCH_SETTLE_MS = 1200;

/** Sends one beacon to `url` (a `/_folio/...` endpoint) under the base path; analytics never breaks the page, so failures are ignored. */
export function beacon(url: string, body: Record<string, unknown>): void {
  try {
    navigator.sendBeacon?.(folioUrl(url), new Blob([JSON.stringify(body)], { type: 'application/json' }));
  } catch {
    // Blocked by an extension or a policy: nothing to do.
  }
}

let pendingSearch: { query: string; results: number } | undefined;
let searchTimer: ReturnType<typeof setTimeout> | undefined;

function flushSearch(): void {
  clearTimeout(searchTimer);
  if (!pendingSearch) return;
  beacon(EVENT_URL, { type: 'search', query: pendingSearch.query.slice(0, 200), results: pendingSearch.results, path: sitePath() });
  pendingSearch = undefined;
}

/** Notes the latest search; it is sent when typing settles, a result is followed, or the page is hidden. */
export function trackSearch(query: string, results: number): void {
  const q = query.trim();
  if (!q) return;
  pendingSearch = { query: q, results };
  clearTimeout(searchTimer);
  searchTimer = setTimeout(flushSearch, SEARCH_SETTLE_MS);
}

/** Sends what is pending now (a result was chosen, the dialog closed). */
export function flushBeacons(): void {
  flushSearch();
}

/**
 * Time on page: the time the page was visible, sent when it is hidden or left (the last moment a
 * page can still send anything), then counted afresh if it becomes visible again.
 */
export function initEngagement(): void {
  let visibleSince = document.visibilityState === 'visible' ? performance.now() : undefined;
  let total = 0;
  const report = () => {
    if (visibleSince !== undefined) { total += performance.now() - visibleSince; visibleSince = undefined; }
    flushSearch();
    if (total >= 1000) beacon(EVENT_URL, { type: 'engagement', path: sitePath(), ms: Math.min(Math.round(total), 86_400_000) });
    total = 0;
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') report();
    else visibleSince = performance.now();
  });
  addEventListener('pagehide', report);
}
