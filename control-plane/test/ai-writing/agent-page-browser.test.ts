/**
 * The writing agent end to end in real Chromium, on the whole platform with a real builder: a
 * writer gives a task on the project's Writing agent page, the scripted stand-in model searches,
 * reads, writes and builds (a preview deployment of the run's branch, built by the builder), the
 * page streams each step and ends with the diff and the preview link; the preview serves the
 * change while the live site does not; "Merge into the live site" merges the branch and the
 * next production deployment serves it.
 */
import t from 'tap';
import { saveSettings } from '../../src/ai-settings/model-settings.ts';
import { addMember, launchBrowser, signedInPage } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { startModelStandIn } from './model-stand-in.ts';

const PASSWORD = 'a long enough passphrase';
const FILES = {
  'docs.json': JSON.stringify({ name: 'Acme Docs', navigation: [{ group: 'Start', pages: ['index', 'webhooks'] }] }, null, 2),
  'index.mdx': '---\ntitle: Home\n---\n\nWelcome.\n',
  'webhooks.mdx': '---\ntitle: Webhooks\n---\n\nFolio sends a webhook for every deployment.\n',
};
const UPDATED = '---\ntitle: Webhooks\n---\n\nFolio sends a webhook for every deployment.\n\n## Retries\n\nA failed delivery is retried three times.\n';

t.test('writing agent page', async (t) => {
  const model = await startModelStandIn();
  t.teardown(() => model.close());
  const tp = await startTestPlatform({ AI_MODEL_PRIVATE_HOSTS: new URL(model.url).host });
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const origin = new URL(tp.p.cp.apiUrl).origin;
  await saveSettings(m, tp.p.cp.deps.env, tp.orgId, { base_url: model.url, model: 'agent-1' }, new Date());
  await addMember(m, tp.orgId, 'agent-writer@example.com', 'editor', PASSWORD);
  const project = (await tp.api('POST', '/projects', { name: 'Docs', slug: `agent-${process.pid}` })).body;
  const wc = await tp.workingCopy(project.slug, FILES);
  await wc.push();
  tp.startWorker();
  await tp.waitForDeployment(project.id, (d) => d.status === 'deployed');
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const errors: string[] = [];

  t.test('should run a task to a built preview and merge it into the live site', async (t) => {
    model.script.push(
      { toolCalls: [{ name: 'search_docs', arguments: { query: 'webhook' } }] },
      { toolCalls: [{ name: 'read_page', arguments: { path: 'webhooks.mdx' } }] },
      { toolCalls: [{ name: 'write_page', arguments: { path: 'webhooks.mdx', content: UPDATED } }] },
      { toolCalls: [{ name: 'run_build', arguments: {} }] },
      { toolCalls: [{ name: 'finish', arguments: { summary: 'Added a Retries section to the webhooks page.' } }] },
    );
    const page = await signedInPage(browser, origin, 'agent-writer@example.com', PASSWORD, errors);
    await page.goto(`${origin}/projects/${project.id}/deployments`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Writing agent' }).click();
    await page.getByRole('heading', { level: 1, name: 'Writing agent' }).waitFor();
    await page.getByRole('textbox', { name: 'Task' }).fill('Document webhook retries: three attempts.');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('heading', { level: 2, name: 'Finished' }).waitFor({ timeout: 240_000 });
    const steps = await page.getByRole('list', { name: 'Steps' }).locator('li').allInnerTexts();
    t.same(steps.map((s) => s.split(' ')[0]), ['Search', 'Read', 'Write', 'Commit', 'Build', 'Done']);
    t.match(steps[4], /^Build Build succeeded/);
    t.match(await page.getByLabel('Changes').innerText(), '+## Retries');
    const preview = await page.getByRole('link', { name: 'Open the preview' }).getAttribute('href');
    t.ok(preview, 'a preview link');
    const live = await tp.site(project.slug, '/webhooks');
    t.notMatch(live.body, 'retried three times', 'the live site is unchanged before the merge');
    await page.getByRole('button', { name: 'Merge into the live site' }).click();
    const outcome = page.getByRole('status').filter({ hasText: 'Merged' }).or(page.getByRole('alert'));
    await outcome.first().waitFor();
    t.match(await outcome.first().innerText(), /^Merged \([0-9a-f]{7}\); the site is deploying\.$/);
    for (let i = 0; i < 240; i++) {
      if ((await tp.site(project.slug, '/webhooks')).body.includes('retried three times')) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    t.match((await tp.site(project.slug, '/webhooks')).body, 'A failed delivery is retried three times.', 'the live site has the change after the merge');
    t.same(errors, []);
  });
});
