/**
 * What SCIM users and groups share: versions and ETags, `If-Match`, list responses with paging
 * and `attributes` / `excludedAttributes`, and resource locations.
 */
import type Koa from 'koa';
import type { Deps } from '../http/route.ts';
import { parseFilter, matches, splitAttrPath } from './scim-filter.ts';
import { scimError, SCIM_CONTENT_TYPE } from './scim-errors.ts';

export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
/** The most resources one list answers (ServiceProviderConfig `filter.maxResults`). */
export const MAX_RESULTS = 200;

type Json = Record<string, unknown>;

/** Where the SCIM endpoints live, for `meta.location`. */
export function scimBase(deps: Deps): string {
  return `${new URL(deps.env.publicApiUrl).origin}/v1/scim/v2`;
}

/** The weak ETag of a version. */
export const etagOf = (version: number) => `W/"${version}"`;

/** 412 unless `If-Match` (when sent) names the current version or is `*`. */
export function checkIfMatch(ctx: Koa.Context, version: number): void {
  const header = ctx.get('if-match');
  if (!header) return;
  const tags = header.split(',').map((t) => t.trim());
  if (tags.includes('*') || tags.some((t) => t === etagOf(version) || t === `"${version}"`)) return;
  throw scimError(412, undefined, `If-Match: ${header.slice(0, 60)} is not the current version ${etagOf(version)}; read the resource again`);
}

/** Response headers of one resource. */
export function resourceHeaders(version: number, location?: string): Record<string, string> {
  return { 'Content-Type': SCIM_CONTENT_TYPE, ETag: etagOf(version), ...(location ? { Location: location } : {}) };
}

/** Attributes every response keeps (RFC 7643 `returned: always`). */
const ALWAYS = new Set(['id', 'schemas', 'meta']);

function parseList(value: unknown, field: string): string[][] | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw scimError(400, 'invalidValue', `${field}: expected a comma-separated list of attributes`);
  try {
    return value.split(',').map((a) => splitAttrPath(a.trim()));
  } catch {
    throw scimError(400, 'invalidValue', `${field}: Unexpected ${JSON.stringify(value.slice(0, 80))}; expected attribute names such as userName,name.givenName`);
  }
}

/** `attributes` and `excludedAttributes` as read from a query. */
export interface Projection { include?: string[][]; exclude?: string[][] }

export function projectionOf(query: Record<string, unknown>): Projection {
  const include = parseList(query.attributes, 'attributes');
  const exclude = parseList(query.excludedAttributes, 'excludedAttributes');
  return { include, exclude };
}

/** Applies a projection to a resource (case-insensitive names; `id`, `schemas` and `meta` always stay). */
export function project(resource: Json, p: Projection): Json {
  if (p.include) {
    const out: Json = {};
    for (const [k, v] of Object.entries(resource)) {
      const lower = k.toLowerCase();
      if (ALWAYS.has(k)) { out[k] = v; continue; }
      const wanted = p.include.filter((path) => path[0] === lower);
      if (!wanted.length) continue;
      if (wanted.some((path) => path.length === 1) || v === null || typeof v !== 'object') { out[k] = v; continue; }
      const subs = new Set(wanted.map((path) => path[1]));
      const pick = (o: Json) => Object.fromEntries(Object.entries(o).filter(([sk]) => subs.has(sk.toLowerCase())));
      out[k] = Array.isArray(v) ? v.map((el) => pick(el as Json)) : pick(v as Json);
    }
    return out;
  }
  if (p.exclude) {
    const out: Json = structuredClone(resource);
    for (const path of p.exclude) {
      const key = Object.keys(out).find((k) => k.toLowerCase() === path[0]);
      if (!key || ALWAYS.has(key)) continue;
      if (path.length === 1) { delete out[key]; continue; }
      const v = out[key];
      const drop = (o: Json) => { for (const sk of Object.keys(o)) if (sk.toLowerCase() === path[1]) delete o[sk]; };
      if (Array.isArray(v)) v.forEach((el) => drop(el as Json)); else if (v && typeof v === 'object') drop(v as Json);
    }
    return out;
  }
  return resource;
}

function positiveInt(value: unknown, field: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (typeof value !== 'string' || !/^-?\d+$/.test(value.trim())) throw scimError(400, 'invalidValue', `${field}: expected a whole number`);
  return n;
}

/** A ListResponse of `resources` filtered, paged (`startIndex` from 1, `count` up to MAX_RESULTS) and projected. */
export function listResponse(resources: Json[], query: Record<string, unknown>): Json {
  const filter = typeof query.filter === 'string' && query.filter.trim() ? parseFilter(query.filter) : undefined;
  if (query.filter !== undefined && typeof query.filter !== 'string') throw scimError(400, 'invalidFilter', 'filter: expected one filter');
  const startIndex = Math.max(1, positiveInt(query.startIndex, 'startIndex', 1));
  const count = Math.min(MAX_RESULTS, Math.max(0, positiveInt(query.count, 'count', MAX_RESULTS)));
  const projection = projectionOf(query);
  const hits = filter ? resources.filter((r) => matches(r, filter)) : resources;
  const page = hits.slice(startIndex - 1, startIndex - 1 + count);
  return { schemas: [LIST_SCHEMA], totalResults: hits.length, startIndex, itemsPerPage: page.length, Resources: page.map((r) => project(r, projection)) };
}

/** The E11000 of a unique index. */
export const isDuplicate = (err: unknown) => (err as { code?: number }).code === 11000;
