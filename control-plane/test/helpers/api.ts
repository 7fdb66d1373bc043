/**
 * Test factory: a real control plane on an ephemeral 127.0.0.1 port with an in-memory embedded
 * database, plus small builders for organizations, keys and projects.
 */
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createOrganization } from '../../src/admin/organizations.ts';
import type { PlanId } from '../../src/db/models/organization.ts';
import { parseEnv } from '../../src/env.ts';
import { startControlPlane, type ControlPlane, type ControlPlaneOptions } from '../../src/server.ts';

export interface TestResponse { status: number; headers: Headers; body: any; text: string }

export interface TestApi {
  cp: ControlPlane;
  url: string;
  /** A mutable clock: set `clock.now` to move time. */
  clock: { now: Date };
  request(method: string, path: string, opts?: { key?: string; body?: unknown; raw?: string | Buffer | FormData; headers?: Record<string, string> }): Promise<TestResponse>;
  org(plan?: PlanId): Promise<{ id: string; handle: string }>;
  key(orgId: string, scopes?: string[], expiresAt?: Date): Promise<string>;
  /** An organization on `plan` with a full-access key. */
  tenant(plan?: PlanId): Promise<{ orgId: string; key: string }>;
  project(key: string, fields?: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

let counter = 0;

export async function startTestApi(opts: Partial<ControlPlaneOptions> = {}): Promise<TestApi> {
  const clock = { now: new Date() };
  const env = parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', ...(process.env.MONGODB_URI ? { MONGODB_URI: process.env.MONGODB_URI } : {}) });
  const cp = await startControlPlane({ env, inMemory: true, port: 0, now: () => clock.now, validateResponses: true, log: () => {}, ...opts });
  const api: TestApi = {
    cp, clock, url: cp.apiUrl,
    async request(method, path, o = {}) {
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      if (o.key) headers.authorization = `Bearer ${o.key}`;
      let body: BodyInit | undefined;
      if (o.raw !== undefined) body = o.raw as BodyInit;
      else if (o.body !== undefined) { body = JSON.stringify(o.body); headers['content-type'] ??= 'application/json'; }
      const res = await fetch(`${cp.apiUrl}${path}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown;
      try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    async org(plan = 'free') {
      const org = await createOrganization(cp.m, `org-${process.pid}-${++counter}`, plan);
      return { id: org._id, handle: org.handle };
    },
    async key(orgId, scopes, expiresAt) {
      return (await createApiKey(cp.m, { orgId, scopes, expiresAt })).key;
    },
    async tenant(plan = 'free') {
      const org = await api.org(plan);
      return { orgId: org.id, key: await api.key(org.id) };
    },
    async project(key, fields = {}) {
      const res = await api.request('POST', '/projects', { key, body: { name: 'Docs', slug: `site-${process.pid}-${++counter}`, ...fields } });
      if (res.status !== 201) throw new Error(`project factory: ${res.status} ${res.text}`);
      return res.body;
    },
    close: () => cp.close(),
  };
  return api;
}
