/**
 * `npm run demo`: starts the platform (like `npm start`), creates the `acme-docs` project in a
 * `demo` organization from the bundled example repository (builder/examples/acme-docs), pushes
 * it to the managed Git repository, waits for the deployment, and prints the site URL (and its
 * v1 version's, listed through the pages API's `version` query). It keeps
 * running so the site can be browsed; Ctrl+C stops it. It also records DEMO_TRAFFIC_EVENTS
 * (default 20,000; 0 skips) synthetic analytics events over the last 30 days through the
 * analytics recorder, so the analytics endpoints have something to show. Run it instead of `npm start`, not beside
 * it (both use the same ports and data).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiKey, createOrganization, parseEnv } from '@folio/control-plane';
import { runGit } from '@folio/control-plane/git/git-cli.ts';
import { startPlatform } from '@folio/control-plane/platform.ts';
import { syntheticTraffic } from './analytics/synthetic-traffic.ts';
import { spawnWorkers } from './spawn-workers.ts';

const EXAMPLE = fileURLToPath(new URL('../../builder/examples/acme-docs', import.meta.url));
const SLUG = 'acme-docs';

const env = parseEnv();
const platform = await startPlatform({ env });
const workers = spawnWorkers(Math.max(1, env.BUILDER_WORKERS), { controlPlaneUrl: platform.internalUrl, workerSecret: platform.workerSecret, quiet: true });
const stop = async () => { await workers.stop(); await platform.close(); };
process.on('SIGINT', () => stop().then(() => process.exit(0)));
process.on('SIGTERM', () => stop().then(() => process.exit(0)));

try {
  const { m } = platform.cp;
  const org = (await m.Organization.findOne({ handle: 'demo' }).lean()) ?? await createOrganization(m, 'demo', 'pro', 'Demo organization');
  const { key } = await createApiKey(m, { orgId: org._id, name: 'demo' });
  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${platform.cp.apiUrl}${p}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, body: await res.json() as any };
  };
  const existing = await m.Project.findOne({ slug: SLUG, org_id: org._id }).lean();
  let project = existing ? (await api('GET', `/projects/${existing._id}`)).body : undefined;
  if (!project) {
    const created = await api('POST', '/projects', { name: 'Acme Docs', slug: SLUG });
    if (created.status !== 201) throw new Error(`could not create the demo project: ${JSON.stringify(created.body)}`);
    project = created.body;
  }
  console.log(`Project ${project.slug} (${project.id})`);

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-demo-'));
  fs.cpSync(EXAMPLE, work, { recursive: true });
  const who = { GIT_AUTHOR_NAME: 'Folio Demo', GIT_AUTHOR_EMAIL: 'demo@folio.dev', GIT_COMMITTER_NAME: 'Folio Demo', GIT_COMMITTER_EMAIL: 'demo@folio.dev' };
  await runGit(['init', '-q', '-b', 'main'], { cwd: work });
  await runGit(['add', '-A'], { cwd: work });
  await runGit(['commit', '-q', '-m', `Acme docs, ${new Date().toISOString()}`], { cwd: work, env: who });
  const remote = `${platform.internalUrl.replace('http://', `http://demo:${key}@`)}/git/${SLUG}.git`;
  await runGit(['push', '-q', '--force', remote, 'main'], { cwd: work });
  const sha = (await runGit(['rev-parse', 'HEAD'], { cwd: work })).stdout.toString().trim();
  console.log(`Pushed ${sha.slice(0, 12)}; waiting for the deployment…`);

  const started = Date.now();
  for (;;) {
    const list = (await api('GET', `/projects/${project.id}/deployments?limit=5`)).body.data as any[];
    const d = list.find((x) => x.commit_sha === sha && x.finished_at);
    if (d) {
      console.log(`Deployment ${d.id}: ${d.status} in ${((Date.now() - started) / 1000).toFixed(1)} s (${d.pages_success}/${d.pages_total} pages${d.pages_failed ? `, ${d.pages_failed} failed` : ''})`);
      if (d.error) console.log(d.error);
      break;
    }
    if (Date.now() - started > 300_000) throw new Error('the deployment did not finish within 5 minutes');
    await new Promise((r) => setTimeout(r, 300));
  }
  const trafficEvents = Number(process.env.DEMO_TRAFFIC_EVENTS ?? 20_000);
  if (trafficEvents > 0 && await m.AnalyticsEvent.countDocuments({ project_id: project.id }) === 0) {
    const pages = ((await api('GET', `/projects/${project.id}/pages`)).body.data as { path: string }[]).map((p) => p.path);
    const host = new URL(env.siteUrlTemplate.replace('{slug}', SLUG)).host;
    for (const e of syntheticTraffic({ projectId: project.id, host, pages: pages.length ? pages : ['/'], days: 30, events: trafficEvents })) {
      platform.analytics.record(e);
      if (platform.analytics.stats().buffered >= 10_000) await platform.analytics.flush();
    }
    await platform.analytics.flush();
    console.log(`Recorded ${platform.analytics.stats().inserted.toLocaleString('en-US')} synthetic analytics events over 30 days`);
  }
  const site = env.siteUrlTemplate.replace('{slug}', SLUG);
  // The example has two versions (docs.json navigation.versions): v2 at the root, v1 under /v1
  // with its own quickstart, every other v1 page shown from v2 with a note.
  const v1 = ((await api('GET', `/projects/${project.id}/pages?version=v1`)).body.data as { path: string }[]).map((p) => p.path);
  // The API tab lists the operations of the example's openapi.yaml (docs.json api.openapi).
  const operations = ((await api('GET', `/projects/${project.id}/pages`)).body.data as { path: string }[]).filter((p) => p.path.startsWith('/api-reference/'));
  console.log(`\nSite: ${site}/   (tabs Guides, Reference and API; version switcher v2 / v1)`);
  console.log(`v1:   ${site}/v1/quickstart   (pages written for v1: ${v1.join(', ') || 'none'}; the others fall back to v2)`);
  console.log(`API reference: ${site}${operations[0]?.path ?? '/api-reference'}   (${operations.length} operations from openapi.yaml, each with a Try it form)`);
  console.log(`API:  ${platform.cp.apiUrl}   (demo key: ${key})`);
  console.log('Ctrl+C stops the demo.');
  if (process.env.DEMO_EXIT === '1') { await stop(); process.exit(0); }
} catch (err) {
  console.error(`demo failed: ${(err as Error).message}`);
  await stop();
  process.exit(1);
}
