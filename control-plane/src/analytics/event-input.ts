/**
 * What callers hand the recorder: the kind of event, its own fields, and the request it came
 * from. This is the one recording call of the platform (site server, beacons, CDN logs and the
 * assistant all use it); classification and hashing happen later, off the request path.
 */
import type { ExportKind } from '../db/models/analytics-event.ts';

type HeaderBag = Record<string, string | string[] | undefined>;

/** The request an event came from. Only used to classify; nothing here is stored as is. */
export interface Visit {
  /** Client address (the socket's, or the first `X-Forwarded-For` hop behind a trusted proxy). */
  ip: string | null;
  userAgent: string;
  /** The Referer header, if any. */
  referer?: string;
  /** The site's host as requested (internal navigation is referred by it). */
  host: string;
  /** Query string of the page URL (`utm_*`, `gclid`), without `?`. */
  search?: string;
  /** Request headers, read for CDN geo headers only. */
  headers?: HeaderBag;
}

/** The kind-specific part of an event. */
export type EventBody =
  | { kind: 'page_view'; path: string }
  | { kind: 'export'; exportKind: ExportKind; path?: string }
  | { kind: 'search'; query: string; resultCount: number; path?: string }
  | { kind: 'feedback'; vote: 'up' | 'down'; path: string }
  | { kind: 'engagement'; durationMs: number; path: string }
  | { kind: 'assistant_open'; path?: string }
  | { kind: 'assistant_message'; path?: string };

/** One event to record. */
export type EventInput = EventBody & {
  projectId: string;
  visit: Visit;
  /** When it happened; default the recorder's clock at `record()` time. */
  at?: Date;
  /** Where it was observed; default `server`. */
  source?: 'server' | 'beacon' | 'cdn_log' | 'app';
};
