/**
 * `npm run bench:grants [-- --pages 1000] [-- --store s3|local] [-- --route grants|objects]`: the
 * control plane's CPU per deployment of a generated site, with builders publishing through upload
 * grants or through the object routes.
 *
 * The platform runs in this process (in-memory database; the S3 store is s3rver in a child
 * process, the local store a temp folder) with one builder worker process; `--route objects`
 * puts a front in a child process before the internal API that answers 404 to the grants route,
 * as a control plane from before grants would, so the worker publishes through the object PUT
 * route exactly as builders did before. Prints this process's CPU (user + system) from the push
 * to the deployment's end, for the cold deployment and for a one-page edit.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiKey, createOrganization, parseEnv } from '@folio/control-plane';
import { runGit } from '@folio/control-plane/git/git-cli.ts';
import { startPlatform } from '@folio/control-plane/platform.ts';
import { parseArgs } from './cli-args.ts';
import { generatedCorpus } from './corpus/bench-corpus.ts';
import { editedSource } from './generate-corpus.ts';
import { spawnWorkers } from './spawn-workers.ts';
import { startS3Server } from '../../builder/test/helpers/s3-server.ts';

const { flags } = parseArgs(process.argv.slice(2));
const PAGES = Number(flags.pages ?? 1000);
const S3 = (flags.store ?? 's3') === 's3';
const OBJECTS = flags.route === 'objects';

/** A front in a child process: 404 on the grants route, everything else passed to `target`. */
async function olderControlPlane(target: string): Promise<{ url: string; stop(): void }> {
  const script = `
    const http = require('node:http');
    const to = new URL(${JSON.stringify(target)});
    http.createServer((req, res) => {
      if (/^\\/internal\\/v1\\/jobs\\/[^/]+\\/uploads$/.test(req.url)) { req.resume(); res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found","message":"route not found"}'); return; }
      const up = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (a) => { res.writeHead(a.statusCode, a.headers); a.pipe(res); });
      up.on('error', () => res.destroy());
      req.pipe(up);
    }).listen(0, '127.0.0.1', function () { process.stdout.write(this.address().port + '\\n'); });
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (c: Buffer) => resolve(c.toString().trim())));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

const s3 = S3 ? await startS3Server() : undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-grant-cpu-'));
const env = parseEnv({
  API_PORT: '0', SITE_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent',
  ...(s3 ? { S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.endpoint, S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' } : {}),
});
const platform = await startPlatform({ env, inMemory: true, port: 0, sitePort: 0, log: () => {} });
const front = OBJECTS ? await olderControlPlane(platform.internalUrl) : undefined;
const workers = spawnWorkers(1, { controlPlaneUrl: front?.url ?? platform.internalUrl, workerSecret: platform.workerSecret, quiet: true });
const org = await createOrganization(platform.cp.m, 'measure', 'enterprise');
const { key } = await createApiKey(platform.cp.m, { orgId: org._id });
const api = async (method: string, p: string, body?: unknown) => (await fetch(`${platform.cp.apiUrl}${p}`, {
  method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined,
})).json() as Promise<any>;
const project = await api('POST', '/projects', { name: 'Measure', slug: 'measure' });
const repo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-grant-cpu-repo-')), 'repo');
const corpus = generatedCorpus(repo, PAGES);
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' } }).toString().trim();
git('remote', 'add', 'origin', `${platform.internalUrl.replace('http://', `http://measure:${key}@`)}/git/measure.git`);

/** This process's CPU seconds from the push of HEAD until its deployment has ended. */
async function deployCpu(): Promise<{ cpuS: number; status: string; uploaded: number }> {
  const sha = git('rev-parse', 'HEAD');
  const before = process.cpuUsage();
  await runGit(['push', '-q', 'origin', 'main'], { cwd: repo });
  for (;;) {
    const d = ((await api('GET', `/projects/${project.id}/deployments?limit=5`)).data as any[]).find((x) => x.commit_sha === sha && x.finished_at);
    if (d) {
      const used = process.cpuUsage(before);
      const stats = (await platform.cp.m.Deployment.findById(d.id).lean())!.stats as { uploaded?: number } | null;
      return { cpuS: (used.user + used.system) / 1e6, status: d.status, uploaded: stats?.uploaded ?? 0 };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

try {
  const cold = await deployCpu();
  const page = corpus.pages[Math.floor(corpus.pages.length / 2)];
  fs.writeFileSync(path.join(repo, page.path), editedSource(page.source, 1));
  git('commit', '-q', '-am', 'edit');
  const edit = await deployCpu();
  const load = os.loadavg().map((l) => l.toFixed(1)).join(', ');
  console.log(`${PAGES} pages, store ${S3 ? 's3' : 'local'}, publishing through ${OBJECTS ? 'the object routes' : 'upload grants'}: control-plane CPU ${cold.cpuS.toFixed(2)} s for the cold deployment (${cold.status}, ${cold.uploaded} objects), ${edit.cpuS.toFixed(2)} s for a one-page edit (${edit.status}, ${edit.uploaded} objects); load average ${load}`);
} finally {
  await workers.stop();
  front?.stop();
  await platform.close();
  await s3?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(path.dirname(repo), { recursive: true, force: true });
}
