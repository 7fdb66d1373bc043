/**
 * Route definitions: one object per endpoint holds its schemas, scope, responses and handler.
 * The same definitions register the Koa routes, validate requests, describe the API in the
 * OpenAPI document, and (in tests) check every response against its declared schema, so the
 * description cannot drift from the behaviour.
 */
import type Koa from 'koa';
import type { ZodType } from 'zod';
import type { ObjectStore } from '@folio/builder';
import type { AuthenticatedKey } from '../auth/api-keys.ts';
import type { Scope } from '../auth/scopes.ts';
import type { Models } from '../db/models/index.ts';
import type { Env } from '../env.ts';
import type { AppError } from '../errors.ts';
import type { ProjectHooks } from '../projects/project-hooks.ts';

/** What every handler may use besides the request. */
export interface Deps {
  m: Models;
  env: Env;
  /** The clock (injectable so tests can cross period boundaries). */
  now(): Date;
  /** Services the platform adds (stores, hooks, test settings); see {@link Services}. */
  services: Services;
}

/**
 * What the platform (platform.ts) or a test hands the routes besides the database and the
 * environment. All optional: a bare API (tests) runs without them, and a route that cannot work
 * without one says so (a missing `siteStore` is a set-up error, 500).
 */
export interface Services {
  /** Where sites and builder state live. */
  siteStore?: ObjectStore;
  /** Follow a project's life: its managed repository, its site files. */
  projectHooks?: ProjectHooks[];
  /**
   * Run after a push moved a managed repository's branches (`before` and `after`: every branch
   * with its commit), never waited for: the self-updating workflows whose code repository it is
   * (set by platform.ts, so Git does not import the writing agent).
   */
  onBranchesMoved?: (deps: Deps, project: { _id: string; org_id: string }, before: Map<string, string>, after: Map<string, string>) => Promise<void>;
  /** Called after a custom domain is verified, to order its certificate at once; without it the next scheduled check does. */
  kickCertificates?: () => void;
  /** Called after a deployment is queued, to wake idle builder workers at once; without it they poll. */
  wakeWorkers?: () => void;
  /** The origin builders reach the internal API and Git at; default `publicApiUrl` without `/v1`. */
  internalBaseUrl?: string;
  /** Hosts downloads may reach although private or loopback (tests, single machine); never set in production. */
  fetchAllowHosts?: string[];
  /** Time limit of a download in ms (default: each caller's own). */
  fetchTimeoutMs?: number;
}

export interface HandlerInput<P, Q, B> {
  ctx: Koa.Context;
  params: P;
  query: Q;
  body: B;
  /** The caller's key; absent only on `auth: 'none'` routes. */
  auth: AuthenticatedKey;
  deps: Deps;
}

export interface HandlerOutput { status?: number; body?: unknown; headers?: Record<string, string> }

export interface ResponseSpec { description: string; schema?: ZodType; contentType?: string }

export interface RouteDef<P = any, Q = any, B = any> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Path below `/v1` in Koa form, e.g. `/projects/:id`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  /** `'key'`: any valid key; a scope: that scope; `'none'`: public. */
  auth: Scope | 'key' | 'none';
  params?: ZodType<P>;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  /** How the body arrives; default `json` when `body` is set. `scim`: JSON sent as `application/json` or `application/scim+json`. */
  bodyType?: 'json' | 'multipart' | 'raw' | 'scim';
  /**
   * How this route's errors look, from authentication on (default `{ error, message }`):
   * SCIM routes answer RFC 7644 error bodies that still carry `error` and `message`.
   */
  formatError?(err: AppError): { body: Record<string, unknown>; contentType: string };
  /** Successful responses by status. Error responses are added to the document for every route. */
  responses: Record<number, ResponseSpec>;
  handler(input: HandlerInput<P, Q, B>): Promise<HandlerOutput>;
}

/** Identity helper that keeps the generic types of a route definition. */
export function defineRoute<P, Q, B>(def: RouteDef<P, Q, B>): RouteDef<P, Q, B> {
  return def;
}
