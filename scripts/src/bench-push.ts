/**
 * `npm run bench:push [-- --pages 1000] [-- --corpus <dir>] [-- --edits 3]`: push-to-live latency
 * of a one-page edit. Starts the platform (in-memory database, local store in a temp folder) with
 * one builder worker process, pushes a generated corpus (or a copy of the docs repository given
 * with `--corpus`, a folder or a Git repository) to a managed project and waits for it to be live
 * (cold), then edits one page (the served page nearest the median size), pushes, and measures
 * until the site server serves the new text (asked every 20 ms from the moment the push starts:
 * the page is live when the site serves it, whether or not `git push` has returned yet, since the
 * push's answer waits for the deployment's outcome). Repeated 3 times. `--timeline` prints, for
 * each edit, when each phase happened on the control plane's side and the worker's
 * (bench/push-timeline.ts); `--verbose` prints the worker's output.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createApiKey, createOrganization, parseEnv } from '@folio/control-plane';
import { runGit } from '@folio/control-plane/git/git-cli.ts';
import { startPlatform } from '@folio/control-plane/platform.ts';
import { urlPathFor } from '@folio/builder/internal/compile/url-path.ts';
import { parseArgs } from './cli-args.ts';
import { byTypicalSize, externalCorpus, generatedCorpus } from './corpus/bench-corpus.ts';
import { queueEvents } from '@folio/control-plane/deploy/queue-events.ts';
import { formatTimeline, pushTimeline } from './bench/push-timeline.ts';
import { formatStats } from './corpus/corpus-stats.ts';
import { editedSource, editMarker } from './generate-corpus.ts';
import { spawnWorkers } from './spawn-workers.ts';

const { flags } = parseArgs(process.argv.slice(2));
const PAGES = Number(flags.pages ?? 1000);
const EDITS = Number(flags.edits ?? 3);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-push-'));
const env = parseEnv({ API_PORT: '0', SITE_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
const platform = await startPlatform({ env, inMemory: true, port: 0, sitePort: 0, log: () => {} });
const timeline = pushTimeline(queueEvents(platform.cp.m));
const workers = spawnWorkers(1, {
  controlPlaneUrl: platform.internalUrl, workerSecret: platform.workerSecret,
  // The worker's `phase …` lines feed the timeline; the rest is shown with --verbose.
  onOutput: (_slot, line) => { timeline.workerLine(line); if (flags.verbose) console.error(line); },
});
const org = await createOrganization(platform.cp.m, 'bench', 'enterprise');
const { key } = await createApiKey(platform.cp.m, { orgId: org._id });

const api = async (method: string, p: string, body?: unknown) => {
  const res = await fetch(`${platform.cp.apiUrl}${p}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  return res.json() as Promise<any>;
};
const siteGet = (urlPath: string) => new Promise<{ status: number; body: string }>((resolve, reject) => {
  http.get(`${platform.site.url}${urlPath}`, { headers: { host: `bench.${env.SITES_DOMAIN}` } }, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
  }).on('error', reject);
});
const waitDeployed = async (sha: string) => {
  for (;;) {
    const d = ((await api('GET', `/projects/${project.id}/deployments?limit=5`)).data as any[]).find((x) => x.commit_sha === sha && x.finished_at);
    if (d) return d;
    await new Promise((r) => setTimeout(r, 50));
  }
};

const project = await api('POST', '/projects', { name: 'Bench', slug: 'bench' });
const repo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-repo-')), 'repo');
const corpus = typeof flags.corpus === 'string' ? externalCorpus(flags.corpus, repo) : generatedCorpus(repo, PAGES);
console.log(formatStats(corpus.stats));
for (const note of corpus.notes) console.log(`note: ${note}`);
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' } }).toString().trim();
// The push talks to this very process, so it must not block the event loop (no execFileSync).
const push = () => runGit(['push', '-q', 'origin', 'main'], { cwd: repo });
git('remote', 'add', 'origin', `${platform.internalUrl.replace('http://', `http://bench:${key}@`)}/git/bench.git`);

try {
  let t0 = performance.now();
  await push();
  const cold = await waitDeployed(git('rev-parse', 'HEAD'));
  const coldStats = (await platform.cp.m.Deployment.findById(cold.id).lean())!.stats as any;
  console.log(`cold deploy of ${corpus.pages.length} pages: ${((performance.now() - t0) / 1000).toFixed(1)} s (${cold.status}, ${cold.pages_success}/${cold.pages_total} pages; steps ${JSON.stringify(coldStats?.timings)})`);
  // The page nearest the median size that the site serves (a page that failed is not served).
  let target: (typeof corpus.pages)[number] | undefined;
  for (const page of byTypicalSize(corpus.pages)) {
    if ((await siteGet(urlPathFor(page.path, corpus.contentRoot))).status !== 200) continue;
    target = page;
    break;
  }
  if (!target) throw new Error('the site serves none of the corpus pages; nothing to edit');
  const urlPath = urlPathFor(target.path, corpus.contentRoot);
  console.log(`edited page: ${target.path} (${(target.source.length / 1024).toFixed(1)} KB) at ${urlPath}`);
  const latencies: number[] = [];
  for (let edit = 1; edit <= EDITS; edit++) {
    fs.writeFileSync(path.join(repo, target.path), editedSource(target.source, edit));
    git('commit', '-q', '-am', `edit ${edit}`);
    const marker = editMarker(edit);
    const sha = git('rev-parse', 'HEAD');
    timeline.begin();
    t0 = performance.now();
    const pushed = push().then(() => timeline.mark('bench', 'git push returned'));
    let served = false;
    while (!served) {
      served = (await siteGet(urlPath)).body.includes(marker);
      if (!served) await new Promise((r) => setTimeout(r, 20));
    }
    const ms = performance.now() - t0;
    timeline.mark('bench', 'site serves the new text');
    await pushed;
    const d = await waitDeployed(sha);
    const stats = (await platform.cp.m.Deployment.findById(d.id).lean())!.stats as any;
    latencies.push(ms);
    console.log(`edit ${edit}: push to live ${(ms / 1000).toFixed(2)} s (compiled ${stats?.compiled}, uploaded ${stats?.uploaded}; build ${stats?.timings?.total} ms)`);
    if (flags.timeline) console.log(formatTimeline(timeline.marks(), stats?.timings));
  }
  latencies.sort((a, b) => a - b);
  console.log(`push-to-live, one-page edit on ${corpus.pages.length} pages: median ${(latencies[Math.floor(latencies.length / 2)] / 1000).toFixed(2)} s (load average ${os.loadavg().map((l) => l.toFixed(1)).join(', ')})`);
} finally {
  timeline.stop();
  await workers.stop();
  await platform.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(path.dirname(repo), { recursive: true, force: true });
}
