/**
 * Writing agent benchmark: the platform's own time per agent step, without the model's.
 *
 * A control plane (embedded database) with a managed repository of `--pages` pages (default
 * 1,000) and a stand-in OpenAI-compatible model on 127.0.0.1 that answers each turn at once with
 * the next tool call of a fixed script (search → read → write → read → finish; no build, which is
 * the builder's time, measured by bench:build). `--runs` runs (default 10), `--concurrency` at
 * a time (default 1, then 5), started over HTTP as a signed-in editor. It prints the time from
 * the start request to the first step event, and the time per step: the run's wall time, less
 * the stand-in's own time to pick its reply (next to nothing: it answers at once), divided by its
 * steps. That is the platform's share of a step (settings, credits, the model client's request
 * and stream over local HTTP, the tool, the step's record and event), i.e. what a step costs on
 * top of a real model's thinking.
 *
 *   npm run bench:agent [-- --pages 1000 --runs 10]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { saveSettings } from '@folio/control-plane/ai-settings/model-settings.ts';
import { createOrganization } from '@folio/control-plane/admin/organizations.ts';
import { createSession, csrfTokenFor } from '@folio/control-plane/dashboard/session-store.ts';
import { localRepoDir } from '@folio/control-plane/editor/repo-access.ts';
import { parseEnv } from '@folio/control-plane/env.ts';
import { runGit } from '@folio/control-plane/git/git-cli.ts';
import { startControlPlane } from '@folio/control-plane/server.ts';
import { parseArgs } from './cli-args.ts';
import { startModelStandIn } from '../../control-plane/test/ai-writing/model-stand-in.ts';

const { flags } = parseArgs(process.argv.slice(2));
const PAGES = Number(flags.pages ?? 1000);
const RUNS = Number(flags.runs ?? 10);
const ms = (n: number) => `${n.toFixed(1)} ms`;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

const model = await startModelStandIn();
const modelMs: number[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-agent-'));
const env = parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir, AI_MODEL_PRIVATE_HOSTS: new URL(model.url).host });
const cp = await startControlPlane({ env, inMemory: true, port: 0, log: () => {} });
try {
  console.log(`Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const org = await createOrganization(cp.m, `bench-agent-${process.pid}`, 'pro');
  const user = await cp.m.User.create({ email: `bench-${process.pid}@example.com`, name: 'Bench', password_hash: 'x', created_at: new Date() });
  await cp.m.Membership.create({ org_id: org._id, user_id: user._id, role: 'editor', created_at: new Date() });
  const { token } = await createSession(cp.m, env, user._id, org._id, new Date());
  const auth = { cookie: `folio_session=${token}`, 'x-csrf-token': csrfTokenFor(token) };
  await saveSettings(cp.m, env, org._id, { base_url: model.url, model: 'bench' }, new Date());
  const project = await cp.m.Project.create({ org_id: org._id, name: 'Bench', slug: `bench-agent-${process.pid}`, created_at: new Date() } as never);
  const projectDoc = (await cp.m.Project.findById(project._id).lean())!;

  // The repository: PAGES pages under guides/, one commit.
  let t = performance.now();
  const gitdir = await localRepoDir(cp.deps, projectDoc);
  const wc = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-agent-wc-'));
  await runGit(['init', '-q', '-b', 'main'], { cwd: wc });
  fs.mkdirSync(path.join(wc, 'guides'));
  fs.writeFileSync(path.join(wc, 'docs.json'), JSON.stringify({ name: 'Bench', navigation: [{ group: 'Guides', pages: Array.from({ length: PAGES }, (_, i) => `guides/page-${i}`) }] }));
  for (let i = 0; i < PAGES; i++) fs.writeFileSync(path.join(wc, 'guides', `page-${i}.mdx`), `---\ntitle: Page ${i}\n---\n\n# Page ${i}\n\nThis page explains topic ${i} of the product, with webhooks on page ${i % 50}.\n`);
  await runGit(['add', '-A'], { cwd: wc });
  await runGit(['commit', '-q', '-m', 'pages'], { cwd: wc, env: { GIT_AUTHOR_NAME: 'B', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'B', GIT_COMMITTER_EMAIL: 'b@example.com' } });
  await runGit(['push', '-q', gitdir, 'HEAD:refs/heads/main'], { cwd: wc });
  console.log(`repository of ${PAGES} pages made in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // Each turn: the next call of the script for that run (from its conversation's length).
  const SCRIPT = [
    { name: 'search_docs', arguments: { query: 'webhooks topic' } },
    { name: 'read_page', arguments: { path: 'guides/page-7.mdx' } },
    { name: 'write_page', arguments: { path: 'guides/page-7.mdx', content: '---\ntitle: Page 7\n---\n\n# Page 7\n\nRewritten by the agent.\n' } },
    { name: 'read_page', arguments: { path: 'guides/page-8.mdx' } },
    { name: 'finish', arguments: { summary: 'Done.' } },
  ];
  model.fallback = (body: { messages: unknown[] }) => {
    const started = performance.now();
    const turn = (body.messages.length - 2) / 2;
    queueMicrotask(() => modelMs.push(performance.now() - started));
    return { toolCalls: [SCRIPT[Math.min(turn, SCRIPT.length - 1)]], tokens: 500 };
  };

  const origin = new URL(cp.apiUrl).origin;
  const oneRun = async () => {
    const before = modelMs.length;
    const started = performance.now();
    const res = await fetch(`${origin}/dashboard/api/projects/${project._id}/agent/runs`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ task: 'Rewrite page 7' }) });
    const run = await res.json() as { id: string };
    const stream = await fetch(`${origin}/dashboard/api/projects/${project._id}/agent/runs/${run.id}/events`, { headers: { cookie: auth.cookie } });
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let first = 0;
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
      if (!first && text.includes('event: step')) first = performance.now() - started;
    }
    const steps = text.split('event: step').length - 1;
    const wall = performance.now() - started;
    const modelTime = modelMs.slice(before).reduce((a, b) => a + b, 0);
    return { first, wall, steps, overheadPerStep: (wall - modelTime) / Math.max(1, steps) };
  };

  for (const concurrency of [Number(flags.concurrency ?? 1), 5]) {
    t = performance.now();
    const results: Awaited<ReturnType<typeof oneRun>>[] = [];
    for (let done = 0; done < RUNS; done += concurrency) results.push(...await Promise.all(Array.from({ length: Math.min(concurrency, RUNS - done) }, oneRun)));
    const firsts = results.map((r) => r.first);
    const over = results.map((r) => r.overheadPerStep);
    console.log(`\n${RUNS} runs, ${concurrency} at a time, ${PAGES} pages, ${results[0].steps} steps each (search, read, write, read, finish, commit), load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(`  first step event after the start request: median ${ms(pct(firsts, 0.5))}, p95 ${ms(pct(firsts, 0.95))}`);
    console.log(`  platform time per step (the stand-in model answers at once): median ${ms(pct(over, 0.5))}, p95 ${ms(pct(over, 0.95))}`);
    console.log(`  whole runs: median ${ms(pct(results.map((r) => r.wall), 0.5))}; all in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  console.log(`\nmemory: rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
} finally {
  await cp.close();
  await model.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
