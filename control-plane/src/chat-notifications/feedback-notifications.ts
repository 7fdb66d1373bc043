/**
 * Chat notifications of reader feedback: a thumbs-down (`POST /_folio/feedback` with
 * `helpful: false`, analytics/beacon.ts) with the reader's comment when there is one. Readers are
 * anonymous, so a project's channels get at most `perHour` of these in any hour; the rest are
 * counted in analytics as usual but not sent to chat.
 */
import { randomUUID } from 'node:crypto';
import type { Models } from '../db/models/index.ts';
import { VisitorRate } from '../http/visitor-rate.ts';
import { feedbackMessage } from './event-messages.ts';
import { anyChannelFor, queueChatMessage } from './queue-chat.ts';

export interface FeedbackNotifyOptions {
  now(): Date;
  siteUrlOf(project: { slug: string; custom_domain?: string | null }): string;
  onQueued(): void;
  onError(err: unknown): void;
  /** Messages per project in any hour; default 30. */
  perHour?: number;
}

/** One reader's feedback as the beacon hands it over. */
export interface ReaderFeedback { path: string; helpful: boolean; comment?: string }

/** The page's address on the site: `path` is set as the path, so it can never name another host. */
function pageUrl(siteUrl: string, path: string): string {
  const url = new URL(siteUrl);
  url.pathname = path;
  return url.toString();
}

/** The beacon's `onFeedback` hook: queues a message for a thumbs-down, within the project's budget. */
export function feedbackNotifier(m: Models, opts: FeedbackNotifyOptions): (projectId: string, feedback: ReaderFeedback) => void {
  // A sliding window per project (the visitors' limiter, keyed by project instead).
  const rate = new VisitorRate({ visitorMessages: opts.perHour ?? 30, visitorWindowMs: 3_600_000 });
  const take = (projectId: string): boolean => {
    const now = opts.now().getTime();
    if (!rate.fits(projectId, now)) return false;
    rate.take(projectId, now);
    return true;
  };
  const send = async (projectId: string, feedback: ReaderFeedback): Promise<number> => {
    if (!await anyChannelFor(m, projectId, 'feedback.negative') || !take(projectId)) return 0;
    const project = await m.Project.findById(projectId, { name: 1, slug: 1, custom_domain: 1 }).lean();
    if (!project) return 0;
    const page = await m.Page.findOne({ project_id: projectId, path: { $in: [feedback.path, feedback.path.replace(/^\/+/, '')] } }, { title: 1 }).lean();
    const now = opts.now();
    const msg = feedbackMessage(project, { path: feedback.path, title: page?.title || undefined, url: pageUrl(opts.siteUrlOf(project), feedback.path) }, feedback.comment, now);
    return queueChatMessage(m, projectId, `feedback.${randomUUID()}`, msg, now);
  };
  return (projectId, feedback) => {
    if (feedback.helpful) return;
    send(projectId, feedback).then((n) => { if (n > 0) opts.onQueued(); }).catch(opts.onError);
  };
}
