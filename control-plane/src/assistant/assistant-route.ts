/**
 * `POST /_folio/assistant` on every site host: `{ messages: [{ role, content }] }` in, an answer
 * out as Server-Sent Events, grounded in that site's published pages only.
 *
 * Events, in order (each `data:` is one JSON object):
 * - `citations` `{ citations: [{ n, title, section, path, url }] }`: the sections the answer may
 *   cite as `[n]`; `path` is site-relative with the section's anchor, `url` absolute.
 * - `results` (only when no model writes the answer) `{ lead, results: [{ n, title, section,
 *   path, url, html, text }] }`: the best matching sections as search results; `html` is the
 *   section rendered to safe HTML (code blocks as code, no images, nothing meant only for AI
 *   agents), `text` the same as one clean line; `lead` says why these are shown.
 * - `delta` `{ text }`: the next piece of the answer (Markdown), as many as it takes. Without a
 *   model, the lead and the results as a numbered list of links with their clean text.
 * - `done` `{ mode: "llm" | "excerpts", reason, remaining }`: the answer is complete; `mode` says
 *   whether a model wrote it; `reason` why not (null with a model): `no_model`, `daily_limit`
 *   (the plan's answers for today are used up), `reader_limit` (this reader's model answers this
 *   hour), `model_unavailable` (the model failed before its first word); `remaining` is the
 *   organization's model answers left today (null: unlimited).
 * - `error` `{ error, message }`: a model answer broke off after its first words
 *   (`upstream_error`, `upstream_timeout`).
 *
 * What counts against `assistant_messages_daily`: a message a model answered. A place is taken
 * before the model is asked (so concurrent questions cannot pass the cap) and given back when the
 * model fails or is cut off before finishing; answers from the best matching pages never count.
 *
 * Readers and API clients: the site's own panel says so with `X-Folio-Client: site-panel`
 * (and sends its anonymous reader id as `X-Folio-Reader`). When the day's answers are used up,
 * the panel gets the best matching pages (`reason: daily_limit`); any other client gets 429
 * `quota_exceeded` with `Retry-After` (seconds to 00:00 UTC), the counter unchanged.
 *
 * Refusals come before any event, as JSON `{ error, message }`: 400 `invalid_request`, 404
 * `not_found` (nothing published yet), 405, 408 `request_timeout`, 413 `payload_too_large`,
 * 415 `unsupported_media_type`, 429 `rate_limited` (visitor rate or site streams, with
 * `Retry-After`), 429 `quota_exceeded` (API clients, see above).
 * `POST /_folio/assistant/open` (no body) records that a visitor opened the assistant: 204.
 *
 * Amplification: one request is one question (the body is one object, never a batch), takes one
 * of the visitor's messages per minute, at most one of the reader's and the address's model
 * answers per hour and one of the plan's daily answers, hands the model at most
 * {@link CONTEXT_PASSAGES} excerpts of bounded size (prompt.ts) and streams at most
 * `maxAnswerChars` of answer (what a follow-up may send back as history): a model that goes on
 * is cut off there and the answer ends with `done` as usual.
 */
import type http from 'node:http';
import { z } from 'zod';
import type { ModelConfig, ChatMessage } from '../ai-settings/model-client.ts';
import { streamChat } from '../ai-settings/model-client.ts';
import type { Models } from '../db/models/index.ts';
import { AppError, notFound } from '../errors.ts';
import { validate } from '../http/validate.ts';
import { VisitorRate } from '../http/visitor-rate.ts';
import { DEFAULT_ABUSE_LIMITS, ReaderAnswers, SiteStreams, type AbuseLimits } from './abuse-limits.ts';
import { answerBudget, readerOf, type Budget } from './answer-budget.ts';
import { conversationQuery } from './bm25-index.ts';
import { excerptView } from './excerpt-view.ts';
import { chatMessages, resultsAnswer, type NumberedExcerpt } from './prompt.ts';
import { methodNotAllowed, readJsonBody, sendError } from './site-http.ts';
import type { SiteContent, SiteIndex } from './site-index.ts';
import { noUsageSink, record, type UsageSink } from './usage-sink.ts';

export const ASSISTANT_PATH = '/_folio/assistant';

export interface AssistantOptions {
  m: Models;
  sites: SiteIndex;
  /** The model answering for an organization (its own settings, else the platform's default); none: the best matching pages. */
  modelOf?(orgId: string): Promise<ModelConfig | undefined>;
  limits?: Partial<AbuseLimits>;
  usage?: UsageSink;
  /** Clock for quotas (tests). Default the real time. */
  now?: () => Date;
  /** Who is asking, for the per-visitor rate. Default the client's address. */
  visitorOf?(req: http.IncomingMessage): string;
}

/** Excerpts handed to a model; an answer without one shows the first {@link RESULTS}. */
const CONTEXT_PASSAGES = 6;
const RESULTS = 3;

/** Why the best matching pages are shown instead of a model's answer, in the reader's words. */
const LEADS = {
  no_model: 'Here are the pages that best match your question.',
  daily_limit: 'The assistant has answered all the questions it can today; here are the best matching pages.',
  reader_limit: 'You have asked the assistant a lot of questions this hour; here are the best matching pages.',
  model_unavailable: 'The assistant could not write an answer just now; here are the best matching pages.',
} as const;

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

type Excerpt = NumberedExcerpt & { path: string; passage: number };

async function excerptsFor(content: SiteContent, conversation: ChatMessage[], count: number): Promise<Excerpt[]> {
  const query = conversationQuery(conversation.filter((c) => c.role === 'user').map((c) => c.content));
  const hits = content.index.search(query, count);
  return Promise.all(hits.map(async (hit, i) => {
    const passage = content.index.passages[hit.passage];
    const page = content.index.pages[passage.page];
    const path = await content.sectionPath(hit.passage);
    return { n: i + 1, title: page.title, section: passage.heading, url: new URL(path, page.url).href, path, text: passage.text, passage: hit.passage };
  }));
}

const citationOf = ({ n, title, section, path, url }: Excerpt) => ({ n, title, section: section ?? null, path, url });

/** Streams the best matching sections as search results (`results`, then the same as Markdown `delta`s). */
async function sendResults(res: http.ServerResponse, content: SiteContent, excerpts: Excerpt[], reason: keyof typeof LEADS): Promise<void> {
  const shown = excerpts.slice(0, RESULTS);
  const results = await Promise.all(shown.map(async (e) => ({ ...citationOf(e), ...excerptView(e.text, await content.audiences(e.passage)) })));
  const lead = LEADS[reason];
  res.write(sseEvent('results', { lead, results }));
  for (const text of resultsAnswer(lead, results.map((r) => ({ ...r, section: r.section ?? undefined })))) res.write(sseEvent('delta', { text }));
}

/** The handler the site server calls for every request on a site host; true when it answered. */
export function assistantHandler(opts: AssistantOptions): (req: http.IncomingMessage, res: http.ServerResponse, projectId: string) => Promise<boolean> {
  const limits = { ...DEFAULT_ABUSE_LIMITS, ...opts.limits };
  const schema = bodySchema(limits);
  const rate = new VisitorRate(limits);
  const readers = new ReaderAnswers(limits);
  const streams = new SiteStreams(limits.siteStreams);
  const usage = opts.usage ?? noUsageSink;
  const now = opts.now ?? (() => new Date());
  const visitorOf = opts.visitorOf ?? ((req) => req.socket.remoteAddress ?? 'unknown');
  const orgOf = orgLookup(opts.m);
  const modelOf = opts.modelOf ?? (async () => undefined);

  /** Streams the model's answer; false when it failed before its first word (nothing was sent). */
  async function modelAnswer(res: http.ServerResponse, model: ModelConfig, content: SiteContent, excerpts: Excerpt[], conversation: ChatMessage[], budget: Budget): Promise<boolean> {
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    let left = limits.maxAnswerChars;
    let sent = false;
    try {
      for await (const text of streamChat(model, chatMessages(content.name, excerpts, conversation), abort.signal)) {
        if (abort.signal.aborted) break;
        sent = true;
        if (text.length >= left) {
          if (left > 0) res.write(sseEvent('delta', { text: text.slice(0, left) }));
          abort.abort(); // the model stops being read, and its request is ended
          break;
        }
        left -= text.length;
        res.write(sseEvent('delta', { text }));
      }
    } catch (err) {
      await budget.giveBack();
      if (!sent) return false;
      const e = err instanceof AppError ? err : new AppError(502, 'upstream_error', 'The answer broke off', { expose: true });
      res.end(sseEvent('error', { error: e.code, message: e.message }));
      return true;
    }
    if (res.destroyed && left > 0) { await budget.giveBack(); return true; }
    res.end(sseEvent('done', { mode: 'llm', reason: null, remaining: budget.remaining }));
    return true;
  }

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, projectId: string): Promise<void> {
    const body = validate(schema, await readJsonBody(req, limits.maxBodyBytes, limits.bodyTimeoutMs), 'body');
    if (body.messages[body.messages.length - 1].role !== 'user') throw new AppError(400, 'invalid_request', 'messages: must end with a user message');
    const content = await opts.sites.get(projectId);
    if (!content) throw new AppError(404, 'not_found', 'This site has no published pages to answer from yet');
    const orgId = await orgOf(projectId);
    if (!orgId) throw notFound('site');
    const release = streams.acquire(projectId);
    try {
      const visitor = visitorOf(req);
      rate.take(`${projectId}\0${visitor}`, now().getTime());
      const model = await modelOf(orgId);
      const budget = await answerBudget({ m: opts.m, orgId, projectId, req, reader: readerOf(req, visitor), readers, now: now(), model: Boolean(model) });
      const conversation = body.messages as ChatMessage[];
      const excerpts = await excerptsFor(content, conversation, budget.reason ? RESULTS : CONTEXT_PASSAGES);
      record(usage, { kind: 'assistant_message', projectId, at: now(), userAgent: req.headers['user-agent'], req, mode: budget.reason ? 'excerpts' : 'llm' });
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-accel-buffering': 'no' });
      res.write(sseEvent('citations', { citations: excerpts.map(citationOf) }));
      let reason: keyof typeof LEADS | undefined = budget.reason;
      if (!reason && model && !(await modelAnswer(res, model, content, excerpts, conversation, budget))) reason = 'model_unavailable';
      if (reason) {
        await sendResults(res, content, excerpts, reason);
        res.end(sseEvent('done', { mode: 'excerpts', reason, remaining: await budget.left() }));
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
