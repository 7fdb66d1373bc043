/**
 * The assistant and the MCP endpoint as one site-server handler. The assistant's model is the
 * organization's own (dashboard model settings) or the platform's default from the environment
 * (`ASSISTANT_LLM_URL`, `ASSISTANT_LLM_KEY`, `ASSISTANT_LLM_MODEL`; none: answers are the best
 * matching pages); `TRUST_PROXY` takes the visitor's address from `X-Forwarded-For`, for a site
 * server behind a CDN. Both read only the published site of the host's project.
 */
import type http from 'node:http';
import type { ObjectStore } from '@folio/builder';
import { cachedModelFor } from '../ai-settings/model-resolver.ts';
import type { Models } from '../db/models/index.ts';
import type { Env } from '../env.ts';
import { visitorAddress } from '../http/client-address.ts';
import type { AbuseLimits } from './abuse-limits.ts';
import { assistantHandler } from './assistant-route.ts';
import { mcpHandler } from './mcp-route.ts';
import { siteIndex, type SiteIndex } from './site-index.ts';
import type { UsageSink } from './usage-sink.ts';

export type SiteHandler = (req: http.IncomingMessage, res: http.ServerResponse, projectId: string) => Promise<boolean>;

export interface SiteRoutesOptions {
  m: Models;
  store: ObjectStore;
  env: Pick<Env, 'ASSISTANT_LLM_URL' | 'ASSISTANT_LLM_KEY' | 'ASSISTANT_LLM_MODEL' | 'ASSISTANT_LLM_TIMEOUT_MS' | 'AI_MODEL_PRIVATE_HOSTS' | 'TRUST_PROXY' | 'UPGRADE_URL'>;
  usage?: UsageSink;
  limits?: Partial<AbuseLimits>;
  now?: () => Date;
  /** Shared index cache (tests, benchmarks); default a new one over `store`. */
  sites?: SiteIndex;
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
  const modelFor = cachedModelFor(opts.m, opts.env, opts.now ? () => opts.now!().getTime() : undefined);
  const modelOf = async (orgId: string) => (await modelFor(orgId, 'assistant'))?.config;
  return chainHandlers(
    assistantHandler({ m: opts.m, sites, modelOf, limits: opts.limits, usage: opts.usage, now: opts.now, visitorOf }),
    mcpHandler({ m: opts.m, store: opts.store, sites, upgradeUrl: opts.env.UPGRADE_URL, usage: opts.usage, now: opts.now, visitorOf, limits: opts.limits }),
  );
}
