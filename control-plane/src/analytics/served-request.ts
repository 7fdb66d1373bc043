/**
 * Server-side recording: which requests the site server (or a CDN log line) answered count as
 * which event. Crawlers and AI agents run no JavaScript, so this is the only way they are seen.
 *
 * | Object key served | Event |
 * |---|---|
 * | `llms.txt` | export `llms_txt` |
 * | `llms-full.txt` | export `llms_full_txt` |
 * | `<page>.md` (a `.md` URL or `Accept: text/markdown` on a page URL) | export `markdown` of that page |
 * | `<page>/index.html`, `index.html` | page view of `/<page>` |
 * | anything else (assets, search index, 404 page) | nothing |
 */
import type http from 'node:http';
import type { EventBody } from './event-input.ts';
import type { AnalyticsRecorder } from './recorder.ts';
import { visitOf } from './visit.ts';

/** The page path of an object key: `guides/install/index.html` and `guides/install.md` are `/guides/install`. */
function pagePath(key: string, suffix: string): string {
  const stem = key.slice(0, -suffix.length).replace(/\/$/, '');
  return stem === '' || stem === 'index' ? '/' : `/${stem}`;
}

/** The event a served object key stands for, or undefined when it is not counted. */
export function eventForKey(key: string): EventBody | undefined {
  if (key === 'llms.txt') return { kind: 'export', exportKind: 'llms_txt' };
  if (key === 'llms-full.txt') return { kind: 'export', exportKind: 'llms_full_txt' };
  if (key.startsWith('_')) return undefined;
  if (key.endsWith('.md')) return { kind: 'export', exportKind: 'markdown', path: pagePath(key, '.md') };
  if (key === 'index.html' || key.endsWith('/index.html')) return { kind: 'page_view', path: pagePath(key, 'index.html') };
  if (key.endsWith('.html') && key !== '404.html') return { kind: 'page_view', path: pagePath(key, '.html') };
  return undefined;
}

/** The site server's `onServed` hook, recording through `recorder`. */
export function recordServed(recorder: AnalyticsRecorder, trustProxy: boolean) {
  return (req: http.IncomingMessage, url: URL, projectId: string, key: string): void => {
    const body = eventForKey(key);
    if (!body) return;
    recorder.record({ ...body, projectId, source: 'server', visit: visitOf(req, { trustProxy, search: url.search.slice(1) }) });
  };
}
