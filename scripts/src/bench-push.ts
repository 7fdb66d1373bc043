/**
 * `npm run bench:push [-- --pages 1000]`: push-to-live latency of a one-page edit. Starts the
 * platform (in-memory database, local store in a temp folder) with one builder worker process,
 * pushes a generated corpus to a managed project and waits for it to be live (cold), then edits
 * one page, pushes, and measures until the site server serves the new text. Repeated 3 times.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createApiKey, createOrganization, parseEnv } from '@folio/control-plane';
import { runGit } from '@folio/control-plane/git/git-cli.ts';
import { startPlatform } from '@folio/control-plane/platform.ts';
import { parseArgs } from './cli-args.ts';
import { corpusPagePath, generateCorpus, pageSource } from './generate-corpus.ts';
import { spawnWorkers } from './spawn-workers.ts';

const { flags } = parseArgs(process.argv.slice(2));
const PAGES = Number(flags.pages ?? 1000);
const EDITS = Number(flags.edits ?? 3);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-push-'));
const env = parseEnv({ API_PORT: '0', SITE_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
const platform = await startPlatform({ env, inMemory: true, port: 0, sitePort: 0, log: () => {} });
const workers = spawnWorkers(1, { env, controlPlaneUrl: platform.internalUrl, workerSecret: platform.workerSecret, quiet: !flags.verbose });
const org = await createOrganization(platform.cp.m, 'bench', 'enterprise');
const { key } = await createApiKey(platform.cp.m, { orgId: org._id });

const api = async (method: string, p: string, body?: unknown) => {
  const res = await fetch(`${platform.cp.apiUrl}${p}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  return res.json() as Promise<any>;
};
const siteGet = (urlPath: string) => new Promise<string>((resolve, reject) => {
  http.get(`${platform.site.url}${urlPath}`, { headers: { host: `bench.${env.SITES_DOMAIN}` } }, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
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
const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-repo-'));
generateCorpus(repo, PAGES);
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' } }).toString().trim();
// The push talks to this very process, so it must not block the event loop (no execFileSync).
const push = () => runGit(['push', '-q', 'origin', 'main'], { cwd: repo });
git('remote', 'add', 'origin', `${platform.internalUrl.replace('http://', `http://bench:${key}@`)}/git/bench.git`);

try {
  let t0 = performance.now();
  await push();
  const cold = await waitDeployed(git('rev-parse', 'HEAD'));
  const coldStats = (await platform.cp.m.Deployment.findById(cold.id).lean())!.stats as any;
  console.log(`cold deploy of ${PAGES} pages: ${((performance.now() - t0) / 1000).toFixed(1)} s (${cold.status}, ${cold.pages_success}/${cold.pages_total} pages; steps ${JSON.stringify(coldStats?.timings)})`);
  const target = 7;
  const urlPath = '/' + corpusPagePath(target).replace(/^docs\//, '').replace(/\.mdx$/, '');
  const latencies: number[] = [];
  for (let edit = 1; edit <= EDITS; edit++) {
    fs.writeFileSync(path.join(repo, corpusPagePath(target)), pageSource(target, edit));
    git('commit', '-q', '-am', `edit ${edit}`);
    const marker = `Revised ${edit} time(s).`;
    t0 = performance.now();
    await push();
    const sha = git('rev-parse', 'HEAD');
    let served = false;
    while (!served) {
      served = (await siteGet(urlPath)).includes(marker);
      if (!served) await new Promise((r) => setTimeout(r, 20));
    }
    const ms = performance.now() - t0;
    const d = await waitDeployed(sha);
    const stats = (await platform.cp.m.Deployment.findById(d.id).lean())!.stats as any;
    latencies.push(ms);
    console.log(`edit ${edit}: push to live ${(ms / 1000).toFixed(2)} s (compiled ${stats?.compiled}, uploaded ${stats?.uploaded}; build ${stats?.timings?.total} ms)`);
  }
  latencies.sort((a, b) => a - b);
  console.log(`push-to-live, one-page edit on ${PAGES} pages: median ${(latencies[Math.floor(latencies.length / 2)] / 1000).toFixed(2)} s`);
} finally {
  await workers.stop();
  await platform.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(repo, { recursive: true, force: true });
}
