/**
 * `POST /_folio/assistant` on every site host: `{ messages: [{ role, content }] }` in, an answer
 * out as Server-Sent Events, grounded in that site's published pages only.
 *
 * Events, in order (each `data:` is one JSON object):
 * - `citations` `{ citations: [{ n, title, section, path, url }] }`: the excerpts the answer may
 *   cite as `[n]`; `path` is site-relative with the section's anchor, `url` absolute.
 * - `delta` `{ text }`: the next piece of the answer (Markdown), as many as it takes.
 * - `done` `{ mode: "llm" | "excerpts", remaining }`: the answer is complete; `mode` says whether
 *   a model wrote it or it quotes excerpts; `remaining` is the organization's messages left today
 *   (null: unlimited).
 * - `error` `{ error, message }`: the answer broke off (`upstream_error`, `upstream_timeout`).
 *
 * Refusals come before any event, as JSON `{ error, message }`: 400 `invalid_request`, 404
 * `not_found` (nothing published yet), 405, 408 `request_timeout`, 413 `payload_too_large`,
 * 415 `unsupported_media_type`, 429 `rate_limited` (visitor rate or site streams, with
 * `Retry-After`), 429 `quota_exceeded` (the plan's `assistant_messages_daily` is used up;
 * `Retry-After` counts to 00:00 UTC and the counter is unchanged).
 * `POST /_folio/assistant/open` (no body) records that a visitor opened the assistant: 204.
 *
 * Amplification: one request is one question (the body is one object, never a batch), takes one
 * of the visitor's messages per minute and one of the plan's daily messages, hands the model at
 * most {@link CONTEXT_PASSAGES} excerpts of bounded size (prompt.ts) and streams at most
 * `maxAnswerChars` of answer (what a follow-up may send back as history): a model that goes on
 * is cut off there and the answer ends with `done` as usual.
 */
import type http from 'node:http';
import { z } from 'zod';
import type { Models } from '../db/models/index.ts';
import { consumeQuota } from '../entitlements/quota.ts';
import { AppError, notFound } from '../errors.ts';
import { validate } from '../http/validate.ts';
import { VisitorRate } from '../http/visitor-rate.ts';
import { DEFAULT_ABUSE_LIMITS, SiteStreams, type AbuseLimits } from './abuse-limits.ts';
import { conversationQuery } from './bm25-index.ts';
import { streamChat, type ChatMessage, type LlmConfig } from './llm-client.ts';
import { chatMessages, excerptAnswer, type NumberedExcerpt } from './prompt.ts';
import { methodNotAllowed, readJsonBody, sendError } from './site-http.ts';
import type { SiteContent, SiteIndex } from './site-index.ts';
import { noUsageSink, record, type UsageSink } from './usage-sink.ts';

export const ASSISTANT_PATH = '/_folio/assistant';

export interface AssistantOptions {
  m: Models;
  sites: SiteIndex;
  /** The model; without one, answers quote the best excerpts. */
  llm?: LlmConfig;
  limits?: Partial<AbuseLimits>;
  usage?: UsageSink;
  /** Clock for quotas (tests). Default the real time. */
  now?: () => Date;
  /** Who is asking, for the per-visitor rate. Default the client's address. */
  visitorOf?(req: http.IncomingMessage): string;
}

/** Excerpts handed to a model; an answer without one quotes the first {@link QUOTED}. */
const CONTEXT_PASSAGES = 6;
const QUOTED = 3;

function bodySchema(l: AbuseLimits) {
  const message = z.discriminatedUnion('role', [
    z.object({ role: z.literal('user'), content: z.string().trim().min(1, 'must not be empty').max(l.maxQuestionChars, `must be at most ${l.maxQuestionChars} characters`) }).strict(),
    z.object({ role: z.literal('assistant'), content: z.string().max(l.maxAnswerChars, `must be at most ${l.maxAnswerChars} characters`) }).strict(),
  ]);
  return z.object({
    messages: z.array(message).min(1, 'must hold at least one message').max(l.maxMessages, `must hold at most ${l.maxMessages} messages`),
  }).strict();
}

/** Organization of a project, cached briefly (a plan or owner change shows within 2 s). */
function orgLookup(m: Models) {
  const cache = new Map<string, { org: string | undefined; at: number }>();
  return async (projectId: string): Promise<string | undefined> => {
    const hit = cache.get(projectId);
    if (hit && Date.now() - hit.at < 2_000) return hit.org;
    const project = await m.Project.findById(projectId, { org_id: 1 }).lean();
    cache.set(projectId, { org: project?.org_id, at: Date.now() });
    return project?.org_id;
  };
}

export function sseEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

async function excerptsFor(content: SiteContent, conversation: ChatMessage[], count: number): Promise<NumberedExcerpt[]> {
  const query = conversationQuery(conversation.filter((c) => c.role === 'user').map((c) => c.content));
  const hits = content.index.search(query, count);
  return Promise.all(hits.map(async (hit, i) => {
    const passage = content.index.passages[hit.passage];
    const page = content.index.pages[passage.page];
    const path = await content.sectionPath(hit.passage);
    return { n: i + 1, title: page.title, section: passage.heading, url: new URL(path, page.url).href, path, text: passage.text };
  }));
}

/** The handler the site server calls for every request on a site host; true when it answered. */
export function assistantHandler(opts: AssistantOptions): (req: http.IncomingMessage, res: http.ServerResponse, projectId: string) => Promise<boolean> {
  const limits = { ...DEFAULT_ABUSE_LIMITS, ...opts.limits };
  const schema = bodySchema(limits);
  const rate = new VisitorRate(limits);
  const streams = new SiteStreams(limits.siteStreams);
  const usage = opts.usage ?? noUsageSink;
  const now = opts.now ?? (() => new Date());
  const visitorOf = opts.visitorOf ?? ((req) => req.socket.remoteAddress ?? 'unknown');
  const orgOf = orgLookup(opts.m);

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, projectId: string): Promise<void> {
    const body = validate(schema, await readJsonBody(req, limits.maxBodyBytes, limits.bodyTimeoutMs), 'body');
    if (body.messages[body.messages.length - 1].role !== 'user') throw new AppError(400, 'invalid_request', 'messages: must end with a user message');
    const content = await opts.sites.get(projectId);
    if (!content) throw new AppError(404, 'not_found', 'This site has no published pages to answer from yet');
    const orgId = await orgOf(projectId);
    if (!orgId) throw notFound('site');
    const release = streams.acquire(projectId);
    try {
      rate.take(`${projectId}\0${visitorOf(req)}`, now().getTime());
      const used = await consumeQuota(opts.m, orgId, 'assistant_messages_daily', 1, now());
      const conversation = body.messages as ChatMessage[];
      const excerpts = await excerptsFor(content, conversation, opts.llm ? CONTEXT_PASSAGES : QUOTED);
      const mode = opts.llm ? 'llm' : 'excerpts';
      record(usage, { kind: 'assistant_message', projectId, at: now(), userAgent: req.headers['user-agent'], req, mode });
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-accel-buffering': 'no' });
      res.write(sseEvent('citations', { citations: excerpts.map(({ text: _text, ...c }) => ({ ...c, section: c.section ?? null })) }));
      const abort = new AbortController();
      res.on('close', () => abort.abort());
      try {
        if (opts.llm) {
          let left = limits.maxAnswerChars;
          for await (const text of streamChat(opts.llm, chatMessages(content.name, excerpts, conversation), abort.signal)) {
            if (abort.signal.aborted) return;
            if (text.length >= left) {
              if (left > 0) res.write(sseEvent('delta', { text: text.slice(0, left) }));
              abort.abort(); // the model stops being read, and its request is ended
              break;
            }
            left -= text.length;
            res.write(sseEvent('delta', { text }));
          }
        } else {
          for (const text of excerptAnswer(excerpts)) res.write(sseEvent('delta', { text }));
        }
        res.end(sseEvent('done', { mode, remaining: used.remaining }));
      } catch (err) {
        const e = err instanceof AppError ? err : new AppError(502, 'upstream_error', 'The answer broke off', { expose: true });
        res.end(sseEvent('error', { error: e.code, message: e.message }));
      }
    } finally {
      release();
    }
  }

  return async (req, res, projectId) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (path !== ASSISTANT_PATH && path !== `${ASSISTANT_PATH}/open`) return false;
    try {
      if (req.method !== 'POST') throw methodNotAllowed(req.method, 'POST');
      if (path === ASSISTANT_PATH) await answer(req, res, projectId);
      else {
        record(usage, { kind: 'assistant_open', projectId, at: now(), userAgent: req.headers['user-agent'], req });
        // The first question after a deployment builds the site's index: start it while the visitor types.
        void opts.sites.get(projectId).catch(() => undefined);
        req.resume();
        res.writeHead(204, { 'cache-control': 'no-store' });
        res.end();
      }
    } catch (err) {
      sendError(res, err);
    }
    return true;
  };
}
