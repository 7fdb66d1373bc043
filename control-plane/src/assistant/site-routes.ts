/**
 * The assistant and the MCP endpoint as one site-server handler, built from the environment:
 * `ASSISTANT_LLM_URL`, `ASSISTANT_LLM_KEY`, `ASSISTANT_LLM_MODEL` (no URL: answers quote
 * excerpts) and `TRUST_PROXY` (take the visitor's address from `X-Forwarded-For`, for a
 * site server behind a CDN). Both read only the published site of the host's project.
 */
import type http from 'node:http';
import type { ObjectStore } from '@folio/builder';
import type { Models } from '../db/models/index.ts';
import type { Env } from '../env.ts';
import { visitorAddress } from '../http/client-address.ts';
import type { AbuseLimits } from './abuse-limits.ts';
import { assistantHandler } from './assistant-route.ts';
import type { LlmConfig } from './llm-client.ts';
import { mcpHandler } from './mcp-route.ts';
import { siteIndex, type SiteIndex } from './site-index.ts';
import type { UsageSink } from './usage-sink.ts';

export type SiteHandler = (req: http.IncomingMessage, res: http.ServerResponse, projectId: string) => Promise<boolean>;

export interface SiteRoutesOptions {
  m: Models;
  store: ObjectStore;
  env: Pick<Env, 'ASSISTANT_LLM_URL' | 'ASSISTANT_LLM_KEY' | 'ASSISTANT_LLM_MODEL' | 'ASSISTANT_LLM_TIMEOUT_MS' | 'TRUST_PROXY' | 'UPGRADE_URL'>;
  usage?: UsageSink;
  limits?: Partial<AbuseLimits>;
  now?: () => Date;
  /** Shared index cache (tests, benchmarks); default a new one over `store`. */
  sites?: SiteIndex;
}

/** The model configured by the environment, if any. */
export function llmFromEnv(env: SiteRoutesOptions['env']): LlmConfig | undefined {
  return env.ASSISTANT_LLM_URL
    ? { url: env.ASSISTANT_LLM_URL, key: env.ASSISTANT_LLM_KEY, model: env.ASSISTANT_LLM_MODEL, firstTokenMs: env.ASSISTANT_LLM_TIMEOUT_MS }
    : undefined;
}

/** Runs each handler in turn until one answers. */
export function chainHandlers(...handlers: SiteHandler[]): SiteHandler {
  return async (req, res, projectId) => {
    for (const handle of handlers) if (await handle(req, res, projectId)) return true;
    return false;
  };
}

/** `/_folio/assistant` and `/mcp` for every site host. */
export function siteRoutes(opts: SiteRoutesOptions): SiteHandler {
  const sites = opts.sites ?? siteIndex({ store: opts.store });
  const visitorOf = visitorAddress(opts.env.TRUST_PROXY);
  return chainHandlers(
    assistantHandler({ m: opts.m, sites, llm: llmFromEnv(opts.env), limits: opts.limits, usage: opts.usage, now: opts.now, visitorOf }),
    mcpHandler({ m: opts.m, store: opts.store, sites, upgradeUrl: opts.env.UPGRADE_URL, usage: opts.usage, now: opts.now, visitorOf, limits: opts.limits }),
  );
}
