/**
 * `npm run bench:editor [-- --pages 100,1000] [-- --edits 30] [-- --pause 250]`: the web editor's
 * live preview, on a control plane with an embedded database and a managed repository holding a
 * generated corpus (generate-corpus.ts, as `bench:build` makes it).
 *
 * For each site size: the first preview request (the preview process starts and builds the whole
 * site; its page cache is then kept in the project's preview folder), then `--edits` edits of a
 * page of typical size, `--pause` ms apart (typing that pauses long enough for the editor to
 * send): each timed from the moment `POST /editor/preview` is sent to the moment the page's new
 * HTML is served at the preview URL (fetched until it holds the edit's text). Printed: p50, p95
 * and max against the 300 ms target, the resident memory of the open preview (its process and
 * sandboxes), the control plane's own, and the load average before and after. Collaboration
 * figures (convergence with 2 and 10 editors, memory per document) are added from
 * bench/editor-collab.ts when it is there.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createOrganization } from '@folio/control-plane/admin/organizations.ts';
import { createApiKey } from '@folio/control-plane/auth/api-keys.ts';
import { hashPassword } from '@folio/control-plane/dashboard/passwords.ts';
import { registerEditorPreviewRoutes } from '@folio/control-plane/dashboard/editor-preview-routes.ts';
import { configureEditorPreviews } from '@folio/control-plane/editor/preview/previews.ts';
import { createManagedRepo, repoPath } from '@folio/control-plane/git/managed-repos.ts';
import { parseEnv } from '@folio/control-plane/env.ts';
import { startControlPlane } from '@folio/control-plane/server.ts';
import { parseArgs } from './cli-args.ts';
import { generatedCorpus, pageToEdit } from './corpus/bench-corpus.ts';
import { editedSource, editMarker } from './generate-corpus.ts';

const { flags } = parseArgs(process.argv.slice(2));
const SIZES = String(flags.pages ?? '100,1000').split(',').map(Number);
const EDITS = Number(flags.edits ?? 30);
const PAUSE_MS = Number(flags.pause ?? 250);
const TARGET_MS = 300;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};
const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const editorRoutes = new URL('../../control-plane/src/dashboard/editor-routes.ts', import.meta.url);
const registered = fs.existsSync(editorRoutes) && fs.readFileSync(editorRoutes, 'utf8').includes('registerEditorPreviewRoutes(');

interface SizeResult { pages: number; firstMs: number; p50: number; p95: number; max: number; previewBytes: number; controlPlaneBytes: number; loadBefore: string; loadAfter: string }

async function measure(pages: number): Promise<SizeResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-editor-'));
  const env = parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
  const cp = await startControlPlane({ env, inMemory: true, port: 0, log: () => {}, dashboard: registered ? {} : { modules: [registerEditorPreviewRoutes] } });
  try {
    configureEditorPreviews(cp.deps, { idleMs: 600_000 });
    const origin = new URL(cp.apiUrl).origin;
    const org = await createOrganization(cp.m, `bench-${pages}`, 'free');
    const { key } = await createApiKey(cp.m, { orgId: org._id });
    const user = await cp.m.User.create({ email: 'bench@example.com', name: 'Bench', password_hash: await hashPassword('bench password 1') });
    await cp.m.Membership.create({ org_id: org._id, user_id: user._id, role: 'owner' });
    const project = await (await fetch(`${cp.apiUrl}/projects`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench docs', slug: `bench-${pages}` }) })).json() as { id: string };
    // The corpus, pushed to the project's managed repository as a writer's `git push` would.
    const corpus = generatedCorpus(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-corpus-')), pages);
    const bare = repoPath(cp.deps, project.id);
    if (!fs.existsSync(bare)) await createManagedRepo(cp.deps, project.id);
    execFileSync('git', ['push', '-q', bare, 'HEAD:refs/heads/main'], { cwd: corpus.dir, stdio: 'ignore' });

    const signIn = await fetch(`${origin}/dashboard/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: 'bench password 1' }) });
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const { csrf_token: csrf } = await signIn.json() as { csrf_token: string };
    const page = pageToEdit(corpus.pages);
    const post = async (content: string) => {
      const res = await fetch(`${origin}/dashboard/api/projects/${project.id}/editor/preview`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' }, body: JSON.stringify({ path: page.path, content }) });
      if (res.status !== 200) throw new Error(`preview: ${res.status} ${await res.text()}`);
      return await res.json() as { url: string; problems: unknown[] };
    };
    const served = async (url: string, marker: string) => {
      for (let i = 0; i < 2000; i++) {
        if ((await (await fetch(url)).text()).includes(marker)) return;
      }
      throw new Error(`${url} never showed "${marker}"`);
    };

    const loadBefore = load();
    let started = performance.now();
    const first = await post(editedSource(page.source, 0));
    await served(first.url, editMarker(0));
    const firstMs = performance.now() - started;
    console.log(`${pages} pages: first preview (process start and whole-site build) ${Math.round(firstMs)} ms; editing ${page.path} (${page.source.length} characters)`);
    const times: number[] = [];
    for (let i = 1; i <= EDITS; i++) {
      await new Promise((r) => setTimeout(r, PAUSE_MS));
      const content = editedSource(page.source, i);
      started = performance.now();
      const res = await post(content);
      await served(res.url, editMarker(i));
      times.push(performance.now() - started);
    }
    const previews = configureEditorPreviews(cp.deps, {});
    const result: SizeResult = {
      pages, firstMs, p50: quantile(times, 0.5), p95: quantile(times, 0.95), max: Math.max(...times),
      previewBytes: previews.memory()[project.id] ?? 0, controlPlaneBytes: process.memoryUsage().rss, loadBefore, loadAfter: load(),
    };
    console.log(`  POST to served HTML over ${EDITS} edits: p50 ${Math.round(result.p50)} ms, p95 ${Math.round(result.p95)} ms, max ${Math.round(result.max)} ms [target p95 <= ${TARGET_MS} ms at 1,000 pages]`);
    console.log(`  open preview (process and sandboxes) ${mb(result.previewBytes)}; control plane process ${mb(result.controlPlaneBytes)}; load average ${loadBefore} before, ${result.loadAfter} after`);
    fs.rmSync(corpus.dir, { recursive: true, force: true });
    return result;
  } finally {
    await cp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`bench:editor on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}; ${EDITS} edits per size, ${PAUSE_MS} ms apart`);
const results: SizeResult[] = [];
for (const pages of SIZES) results.push(await measure(pages));

// Collaboration figures, from their own module when it is part of this checkout.
const collab = new URL('./bench/editor-collab.ts', import.meta.url);
if (fs.existsSync(collab)) {
  const mod = await import(collab.href) as { measureCollab?: () => Promise<unknown> };
  if (mod.measureCollab) await mod.measureCollab();
}

console.log('\n| Pages | First preview | p50 | p95 | Max | Open preview | Load before → after |');
console.log('|---:|---:|---:|---:|---:|---:|---|');
for (const r of results) console.log(`| ${r.pages} | ${Math.round(r.firstMs)} ms | ${Math.round(r.p50)} ms | ${Math.round(r.p95)} ms | ${Math.round(r.max)} ms | ${mb(r.previewBytes)} | ${r.loadBefore} → ${r.loadAfter} |`);
process.exit(0);
