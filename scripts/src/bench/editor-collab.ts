/**
 * The web editor's collaboration figures, for `npm run bench:editor`: a control plane on a durable
 * embedded database (every acknowledged update is written before it is applied, as in
 * production), real `@hocuspocus/provider` clients over WebSocket, each signed in as its own
 * member of a pro organization.
 *
 * - Convergence: `editors` clients open one page; in turns, one types a marker at the end and the
 *   time until every other client's text holds it is taken (p50, p95, max over `rounds`).
 * - Memory per open document: the heap growth of the process while `documents` pages are open
 *   (one client each, a page of about 6 KB), divided by their number. Client and server run in
 *   this one process, so the figure holds the server's document and one client's copy: an upper
 *   bound for the server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { createOrganization } from '@folio/control-plane/admin/organizations.ts';
import { createApiKey } from '@folio/control-plane/auth/api-keys.ts';
import { hashPassword } from '@folio/control-plane/dashboard/passwords.ts';
import { createManagedRepo, repoPath } from '@folio/control-plane/git/managed-repos.ts';
import { parseEnv } from '@folio/control-plane/env.ts';
import { startControlPlane } from '@folio/control-plane/server.ts';

export interface CollabResult { editors: number; rounds: number; p50: number; p95: number; max: number; bytesPerDocument: number; documents: number; loadBefore: string; loadAfter: string }

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const PASSWORD = 'bench password 1';

interface BenchClient { doc: Y.Doc; text: Y.Text; provider: HocuspocusProvider; socket: HocuspocusProviderWebsocket }

function open(url: string, name: string, headers: Record<string, string>): Promise<BenchClient> {
  const WithHeaders = class extends WebSocket { constructor(u: string, p?: string | string[]) { super(u, p, { headers }); } };
  const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WithHeaders });
  const doc = new Y.Doc();
  return new Promise((resolve, reject) => {
    const provider = new HocuspocusProvider({
      websocketProvider: socket, name, document: doc, token: 'session',
      onAuthenticationFailed: ({ reason }) => reject(new Error(`refused: ${reason}`)),
      onSynced: () => resolve({ doc, text: doc.getText('content'), provider, socket }),
    });
    provider.attach();
  });
}

const close = (c: BenchClient) => { c.provider.destroy(); c.socket.destroy(); };

/** Measures convergence with `editors` clients (both 2 and 10 when not given) and memory per document; prints and returns the figures. */
export async function measureCollab(opts: { editors?: 2 | 10; rounds?: number; documents?: number } = {}): Promise<CollabResult[]> {
  const sizes = opts.editors ? [opts.editors] : [2, 10] as const;
  const rounds = opts.rounds ?? 40;
  const documents = opts.documents ?? 50;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-collab-'));
  const env = parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
  const cp = await startControlPlane({ env, port: 0, log: () => {} });
  const results: CollabResult[] = [];
  try {
    const origin = new URL(cp.apiUrl).origin;
    const org = await createOrganization(cp.m, 'bench-collab', 'pro');
    const { key } = await createApiKey(cp.m, { orgId: org._id });
    const project = await (await fetch(`${cp.apiUrl}/projects`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Collab bench', slug: 'bench-collab' }) })).json() as { id: string };
    if (!fs.existsSync(repoPath(cp.deps, project.id))) await createManagedRepo(cp.deps, project.id);
    const url = `${origin.replace(/^http/, 'ws')}/dashboard/api/projects/${project.id}/editor/collab`;
    const cookies: string[] = [];
    for (let i = 0; i < Math.max(...sizes); i++) {
      const email = `writer-${i}@example.com`;
      const user = await cp.m.User.create({ email, name: `Writer ${i}`, password_hash: await hashPassword(PASSWORD) });
      await cp.m.Membership.create({ org_id: org._id, user_id: user._id, role: 'editor' });
      const res = await fetch(`${origin}/dashboard/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
      cookies.push(res.headers.getSetCookie().find((c) => c.startsWith('folio_session='))!.split(';')[0]!);
    }
    const headers = (i: number) => ({ cookie: cookies[i]!, origin });

    // Memory per open document.
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const page = `# A page\n\n${'Some paragraph text that a writer typed into the page. '.repeat(110)}\n`;
    const opened: BenchClient[] = [];
    for (let d = 0; d < documents; d++) {
      const c = await open(url, `memory/page-${d}.mdx`, headers(0));
      c.text.insert(0, page);
      opened.push(c);
    }
    await new Promise((r) => setTimeout(r, 2000));
    global.gc?.();
    const bytesPerDocument = (process.memoryUsage().heapUsed - heapBefore) / documents;
    for (const c of opened) close(c);

    for (const editors of sizes) {
      const loadBefore = load();
      const clients: BenchClient[] = [];
      for (let i = 0; i < editors; i++) clients.push(await open(url, `converge-${editors}.mdx`, headers(i)));
      const times: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const writer = clients[r % editors]!;
        const marker = `[edit ${r}]`;
        const others = clients.filter((c) => c !== writer);
        const started = performance.now();
        const converged = Promise.all(others.map((c) => new Promise<void>((resolve) => {
          const check = () => { if (c.text.toString().includes(marker)) { c.doc.off('update', check); resolve(); } };
          c.doc.on('update', check);
          check();
        })));
        writer.text.insert(writer.text.length, `${marker} `);
        await converged;
        times.push(performance.now() - started);
        await new Promise((res) => setTimeout(res, 50));
      }
      for (const c of clients) close(c);
      const result: CollabResult = { editors, rounds, p50: quantile(times, 0.5), p95: quantile(times, 0.95), max: Math.max(...times), bytesPerDocument, documents, loadBefore, loadAfter: load() };
      console.log(`collaboration, ${editors} editors on one page, ${rounds} edits: edit to every other client converged p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, max ${result.max.toFixed(1)} ms; load average ${loadBefore} before, ${result.loadAfter} after`);
      results.push(result);
    }
    console.log(`collaboration memory: ${(bytesPerDocument / 1024).toFixed(0)} KB of heap per open document (${documents} pages of ${(page.length / 1024).toFixed(1)} KB; server document and one client copy in this process)`);
  } finally {
    await cp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}
