import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createLocalDirStore } from '@folio/builder/internal/store/local-dir-store.ts';
import { siteIndex } from '../../src/assistant/site-index.ts';
import { warmOnDeployment } from '../../src/assistant/warm-on-deployment.ts';
import type { Models } from '../../src/db/models/index.ts';
import { queueEvents } from '../../src/deploy/queue-events.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

t.test('assistant index warmed by deployments', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);
  const project = (await tp.api('POST', '/projects', { name: 'Warm', slug: 'warm-index' })).body;
  const wc = await tp.workingCopy('warm-index', {
    'docs.json': JSON.stringify({ name: 'Warm Docs' }),
    'docs/index.mdx': page('Welcome', 'Start here.'),
    'docs/guides/install.mdx': page('Install', '## Requirements\n\nThe installer needs 4 GB of free disk space.'),
  });
  const ask = async (question: string) => {
    const res = await tp.site('warm-index', '/_folio/assistant', { 'content-type': 'application/json' }, {
      method: 'POST', body: JSON.stringify({ messages: [{ role: 'user', content: question }] }),
    });
    const citations = /event: citations\ndata: (.*)\n/.exec(res.body)?.[1];
    return { status: res.status, first: citations ? JSON.parse(citations).citations[0]?.path : undefined };
  };

  t.test('should have the index built by the deployment, so the first question builds nothing', async (t) => {
    t.same(tp.p.assistantIndex.stats(), { builds: 0, warmBuilds: 0, pagesAnalysed: 0 }, 'nothing built before a deployment');
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.equal(d.status, 'deployed', d.error ?? 'no error');
    const answer = await ask('How much disk space does the installer need?');
    t.same(answer, { status: 200, first: '/guides/install#requirements' });
    t.same(tp.p.assistantIndex.stats(), { builds: 1, warmBuilds: 1, pagesAnalysed: 2 }, 'one build, started by the deployment');
    await ask('Where do I start?');
    t.same(tp.p.assistantIndex.stats(), { builds: 1, warmBuilds: 1, pagesAnalysed: 2 }, 'later questions reuse it');
  });

  t.test('should build the next deployment\'s index when it finishes, answering from the new content', async (t) => {
    await wc.write({ 'docs/guides/install.mdx': page('Install', '## Requirements\n\nThe installer needs 9 GB of free disk space and a kettle.') });
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.equal(d.status, 'deployed', d.error ?? 'no error');
    const res = await tp.site('warm-index', '/_folio/assistant', { 'content-type': 'application/json' }, {
      method: 'POST', body: JSON.stringify({ messages: [{ role: 'user', content: 'Does the installer need a kettle?' }] }),
    });
    t.match(res.body, 'a kettle');
    t.same(tp.p.assistantIndex.stats(), { builds: 2, warmBuilds: 2, pagesAnalysed: 3 }, 'the new deployment was built by its deployment, not by the question, analysing only the page that changed');
  });
});

t.test('a warm-up gives way to its site\'s next build', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-warm-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const store = createLocalDirStore(dir);
  const pages = Array.from({ length: 4000 }, (_, i) => `---\n\nSource: https://docs.example/p${i}\n\n# Page ${i}\n\n${'Retries, limits and keys of page number '.repeat(20)}${i}.\n\n## Details\n\nMore about ${i}.\n\n`);
  for (const project of ['p1', 'p2']) await store.put(`sites/${project}/llms-full.txt`, Buffer.from(`# Docs\n\n${pages.join('')}`));
  const m = {} as Models;
  const sites = siteIndex({ store });
  const stop = warmOnDeployment(m, sites);
  t.teardown(stop);
  const events = queueEvents(m);
  // Turns of the event loop, not time: a warm-up that never starts fails the test instead of hanging it.
  const until = async (done: () => boolean) => {
    for (let turns = 0; !done(); turns++) {
      if (turns > 1_000_000) throw new Error(`not reached: ${JSON.stringify(sites.stats())}`);
      await new Promise((r) => setImmediate(r));
    }
  };

  const claim = (deploymentId: string, projectId: string, preview: boolean) => events.emit('claimed', { deploymentId, projectId, preview, workerId: 'w', waitMs: 0, takeover: false });

  t.test('should stop when a production build of the project is claimed, go on through a preview\'s, and analyse each page once in all', async (t) => {
    events.emit('finished', { deploymentId: 'd1', projectId: 'p1', status: 'deployed' });
    await until(() => sites.stats().warmBuilds === 1);
    claim('d2', 'p1', false);
    // Warm-ups run one at a time: once p2's has started, p1's has ended.
    events.emit('finished', { deploymentId: 'd3', projectId: 'p2', status: 'deployed' });
    await until(() => sites.stats().warmBuilds === 2);
    t.ok(sites.stats().pagesAnalysed < 4000, `p1's warm-up stopped after ${sites.stats().pagesAnalysed} pages`);
    claim('d4', 'p2', true);
    t.ok(await sites.get('p2'), 'p2\'s warm-up went on through its preview\'s build');
    t.same(sites.stats().builds, 2, 'the question joined it');
    events.emit('finished', { deploymentId: 'd2', projectId: 'p1', status: 'failed' });
    await until(() => sites.stats().warmBuilds === 3);
    t.ok(await sites.get('p1'), 'p1\'s index is built once its build has ended');
    t.same(sites.stats(), { builds: 3, warmBuilds: 3, pagesAnalysed: 8000 }, 'no page analysed twice');
  });
});
