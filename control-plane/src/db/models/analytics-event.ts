import { Schema, type Types } from 'mongoose';

/** What an analytics event records (one document per request, beacon or assistant call). */
export const EVENT_KINDS = ['page_view', 'export', 'search', 'feedback', 'engagement', 'assistant_open', 'assistant_message'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** The three exports of spec 2.8: `llms.txt`, `llms-full.txt`, and a page's Markdown (`.md` or `Accept: text/markdown`). */
export const EXPORT_KINDS = ['llms_txt', 'llms_full_txt', 'markdown'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** Where an event was observed. */
export const EVENT_SOURCES = ['server', 'beacon', 'cdn_log', 'app'] as const;

/**
 * One classified event. No IP address, cookie or raw User-Agent is stored: `visitor` is a salted
 * hash whose salt changes every UTC day (see analytics/visitor-hash.ts). Fields that do not apply
 * to a kind are left out of the document (they read as null in queries).
 */
export interface AnalyticsEvent {
  /** Set by the recorder as it classifies the event (analytics/classify.ts). */
  _id?: Types.ObjectId;
  project_id: string;
  ts: Date;
  kind: EventKind;
  source: (typeof EVENT_SOURCES)[number];
  /** Page path (`/`, `/guides/install`); exports of a page carry the page's path. */
  path?: string;
  visitor: string;
  /**
   * `<project id>|<start of the UTC hour in ms>`: the equality key reads of part hours look up
   * (analytics/rollup-edges.ts); the embedded database looks up equality on an index's leading
   * field only, and a range on `ts` would test every event of the project.
   */
  hour_key?: string;
  bot: boolean;
  /** AI crawler or agent family (analytics/ai-families.ts), when the User-Agent names one. */
  ai_family?: string;
  browser: string;
  os: string;
  device: string;
  channel: string;
  referrer?: string;
  campaign?: string;
  keyword?: string;
  country?: string;
  region?: string;
  city?: string;
  export_kind?: ExportKind;
  query?: string;
  result_count?: number;
  vote?: 'up' | 'down';
  duration_ms?: number;
}

/**
 * The schema only declares indexes: events are written in batches through the driver (no
 * per-document mongoose casting) by analytics/recorder.ts. Every query filters on the project
 * and a time range, and most on the kind; retention (a TTL index on `ts`) is created by the
 * recorder since its length is configuration.
 */
export const analyticsEventSchema = new Schema({ project_id: String, ts: Date, kind: String }, { versionKey: false, strict: false, autoCreate: true });
analyticsEventSchema.index({ project_id: 1, kind: 1, ts: 1 });
analyticsEventSchema.index({ hour_key: 1 });

/** The salt of one UTC day, shared by every control-plane process; deleted soon after the day ends. */
export const analyticsSaltSchema = new Schema({
  _id: { type: String },
  salt: { type: String, required: true },
  expires_at: { type: Date, required: true },
}, { versionKey: false });
analyticsSaltSchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

export interface AnalyticsSalt { _id: string; salt: string; expires_at: Date }
