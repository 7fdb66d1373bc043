/**
 * Inline AI in the web editor: `POST /projects/:id/editor/ai` answers Server-Sent Events
 * (`event: delta` `{ text }` for each piece of the suggestion as the model writes it, then
 * `event: done` `{ text, mode, usage }`, or `event: error` `{ error, message }` if the model fails
 * once the stream began). Everything that can refuse the request (session, CSRF, `content.edit`,
 * the project, the `inline_ai` plan feature, the body, the selection's size, the model, the month's
 * credits) answers a plain JSON error before the stream starts. See src/ai-writing/README.md.
 */
import type Koa from 'koa';
import { suggest } from '../ai-writing/inline-ai.ts';
import { inlineAiBody } from '../ai-writing/inline-prompts.ts';
import { modelNotConfigured, writingModel } from '../ai-writing/writing-model.ts';
import { requireFeature } from '../entitlements/resolver.ts';
import { AppError } from '../errors.ts';
import { jsonBody, jsonOnly } from '../http/app.ts';
import type { Deps } from '../http/route.ts';
import { assertPlainJson, validate } from '../http/validate.ts';
import { findOwnProject } from '../projects/own-project.ts';
import type { DashboardRouter } from './dashboard-route.ts';
import { requirePermission, requireSession, type DashboardSession } from './session-auth.ts';

export const INLINE_AI_PATH = '/projects/:id/editor/ai';

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

function inlineAiHandler(): Koa.Middleware {
  return async (ctx) => {
    const deps = ctx.state.dashboardDeps as Deps;
    const session = ctx.state.session as DashboardSession;
    const project = await findOwnProject(deps.m, session.orgId, ctx.params.id);
    await requireFeature(deps.m, session.orgId, 'inline_ai', deps.now(), deps.env.UPGRADE_URL);
    assertPlainJson(ctx.request.body);
    const body = validate(inlineAiBody, ctx.request.body ?? {}, 'body');
    const config = await writingModel(deps.m, deps.env, project.org_id);
    if (!config) throw modelNotConfigured();
    const abort = new AbortController();
    ctx.req.on('close', () => abort.abort());
    ctx.res.on('close', () => abort.abort());
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      ctx.req.socket.setTimeout(0);
      ctx.respond = false;
      ctx.res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    };
    try {
      const result = await suggest(deps, session.orgId, project._id, config, body, abort.signal, (text) => { start(); ctx.res.write(sse('delta', { text })); });
      start();
      ctx.res.end(sse('done', result));
    } catch (err) {
      // Before the first piece, the error is the response (its status and `{ error, message }`).
      if (!started) throw err;
      const e = err instanceof AppError && err.expose ? { error: err.code, message: err.message } : { error: 'internal_error', message: 'The suggestion stopped; try again' };
      ctx.res.end(sse('error', e));
    }
  };
}

/** Registers the inline AI route (called from the editor's routes). */
export function registerInlineAiRoutes(router: DashboardRouter, _deps: Deps): void {
  router.koa.post(INLINE_AI_PATH, requireSession, requirePermission('content.edit'), jsonOnly, jsonBody, inlineAiHandler());
}
