/**
 * Test factory for the assistant and MCP endpoints: a real control plane (embedded database,
 * settable clock), a local object store, the real site server with the assistant and MCP
 * handlers, and sites built by the real builder from the bundled example repository plus pages
 * a test adds. Requests go over 127.0.0.1 with the site's Host header.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, createLocalDirStore, prefixStore, type ObjectStore } from '@folio/builder';
import { createCompiler } from '@folio/builder/internal/sandbox/index.ts';
import type { AbuseLimits } from '../../src/assistant/abuse-limits.ts';
import { siteRoutes } from '../../src/assistant/site-routes.ts';
import type { UsageEvent } from '../../src/assistant/usage-sink.ts';
import type { PlanId } from '../../src/db/models/organization.ts';
import { parseEnv } from '../../src/env.ts';
import { startSiteServer, type SiteServer } from '../../src/sites/site-server.ts';
import { startTestApi, type TestApi } from '../helpers/api.ts';

export const EXAMPLE = fileURLToPath(new URL('../../../builder/examples/acme-docs', import.meta.url));

/** One parsed Server-Sent Event. */
export interface SseEvent { event: string; data: any }

export interface SiteFixture {
  api: TestApi;
  store: ObjectStore;
  site: SiteServer;
  /** Every usage event the endpoints reported. */
  usage: UsageEvent[];
  /** A project of a new organization on `plan`, its site built from the example plus `files`. */
  publish(plan: PlanId, files?: Record<string, string>, base?: string): Promise<{ id: string; slug: string; orgId: string }>;
  /** POST JSON to a site host, reading a stream of events as it arrives (`onEvent` sees each one). */
  post(slug: string, urlPath: string, body: unknown, opts?: { headers?: Record<string, string>; raw?: string; onEvent?(e: SseEvent): void }): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; json?: any; events: SseEvent[] }>;
  close(): Promise<void>;
}

export function parseSse(text: string): SseEvent[] {
  return text.split('\n\n').filter((b) => b.trim()).map((block) => {
    const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
    const data = /^data: (.*)$/m.exec(block)?.[1];
    return { event, data: data === undefined ? undefined : JSON.parse(data) };
  });
}

let counter = 0;

export async function startSiteFixture(opts: { env?: Record<string, string>; limits?: Partial<AbuseLimits> } = {}): Promise<SiteFixture> {
  const api = await startTestApi();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-assistant-'));
  const store = createLocalDirStore(path.join(dir, 'store'));
  const usage: UsageEvent[] = [];
  const env = parseEnv({ ...opts.env });
  const site = await startSiteServer({
    m: api.cp.m, store, sitesDomain: 'localhost', host: '127.0.0.1', port: 0,
    handle: siteRoutes({ m: api.cp.m, store, env, usage: (e) => usage.push(e), limits: opts.limits, now: () => api.clock.now }),
  });
  const compiler = await createCompiler();
  return {
    api, store, site, usage,
    async publish(plan, files = {}, base = EXAMPLE) {
      const org = await api.org(plan);
      const slug = `docs-${process.pid}-${++counter}`;
      const project = await api.cp.m.Project.create({ org_id: org.id, name: 'Docs', slug, status: 'active' });
      const repo = path.join(dir, `repo-${counter}`);
      fs.cpSync(base, repo, { recursive: true });
      for (const [file, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
        fs.writeFileSync(path.join(repo, file), text);
      }
      const result = await build({ source: { kind: 'dir', dir: repo }, store: prefixStore(store, `sites/${project._id}/`), siteUrl: `http://${slug}.localhost`, compiler, year: 2025 });
      if (result.pagesFailed) throw new Error(`fixture pages failed: ${JSON.stringify(result.errors)}`);
      return { id: project._id, slug, orgId: org.id };
    },
    post(slug, urlPath, body, o = {}) {
      return new Promise((resolve, reject) => {
        const payload = o.raw ?? JSON.stringify(body);
        const req = http.request(`${site.url}${urlPath}`, {
          method: 'POST',
          headers: { host: `${slug}.localhost`, 'content-type': 'application/json', ...o.headers },
        }, (res) => {
          let text = '';
          let pending = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            pending += chunk;
            let cut: number;
            while ((cut = pending.indexOf('\n\n')) >= 0) {
              const block = pending.slice(0, cut + 2);
              pending = pending.slice(cut + 2);
              if (String(res.headers['content-type']).startsWith('text/event-stream')) for (const e of parseSse(block)) o.onEvent?.(e);
            }
          });
          res.on('end', () => {
            const sse = String(res.headers['content-type']).startsWith('text/event-stream');
            let json: unknown;
            if (!sse && text) try { json = JSON.parse(text); } catch { json = undefined; }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, events: sse ? parseSse(text) : [] });
          });
        });
        req.on('error', reject);
        req.end(payload);
      });
    },
    async close() {
      await compiler.close();
      await site.close();
      await api.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
