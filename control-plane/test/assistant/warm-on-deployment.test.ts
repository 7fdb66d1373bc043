import t from 'tap';
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
    t.same(tp.p.assistantIndex.stats(), { builds: 0, warmBuilds: 0 }, 'nothing built before a deployment');
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.equal(d.status, 'deployed', d.error ?? 'no error');
    const answer = await ask('How much disk space does the installer need?');
    t.same(answer, { status: 200, first: '/guides/install#requirements' });
    t.same(tp.p.assistantIndex.stats(), { builds: 1, warmBuilds: 1 }, 'one build, started by the deployment');
    await ask('Where do I start?');
    t.same(tp.p.assistantIndex.stats(), { builds: 1, warmBuilds: 1 }, 'later questions reuse it');
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
    t.same(tp.p.assistantIndex.stats(), { builds: 2, warmBuilds: 2 }, 'the new deployment was built by its deployment, not by the question');
  });
});
