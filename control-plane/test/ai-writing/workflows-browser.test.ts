/**
 * The Workflows tab in real Chromium, end to end on the whole platform: an Enterprise owner
 * creates a workflow that follows pushes to a second project's repository, a real `git push` of
 * the code starts the writing agent (a stand-in model), and the tab lists the run with its
 * trigger, credits and review branch; a Pro organization is told the plan it needs.
 */
import t from 'tap';
import { saveSettings } from '../../src/ai-settings/model-settings.ts';
import { agentRunModel } from '../../src/ai-writing/agent-run-store.ts';
import { addMember, launchBrowser, signedInPage } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { startModelStandIn } from './model-stand-in.ts';

const PASSWORD = 'a long enough passphrase';

t.test('workflows page', async (t) => {
  const model = await startModelStandIn();
  t.teardown(() => model.close());
  const tp = await startTestPlatform({ AI_MODEL_PRIVATE_HOSTS: new URL(model.url).host });
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const origin = new URL(tp.p.cp.apiUrl).origin;
  const ent = await tp.newOrg('wf-browser-ent');
  await addMember(m, ent.orgId, 'wf-owner@example.com', 'owner', PASSWORD);
  const docs = (await tp.api('POST', '/projects', { name: 'Docs', slug: 'wfb-docs' }, ent.key)).body;
  const code = (await tp.api('POST', '/projects', { name: 'Widget service', slug: 'wfb-code' }, ent.key)).body;
  await saveSettings(m, tp.p.cp.deps.env, ent.orgId, { base_url: model.url, model: 'agent-1' }, new Date());
  await (await tp.workingCopy('wfb-docs', { 'docs.json': '{"name":"Docs","navigation":[{"group":"API","pages":["index"]}]}\n', 'index.mdx': '# Home\n' }, ent.key)).push();
  const codeWc = await tp.workingCopy('wfb-code', { 'src/widgets.ts': 'export function listWidgets() {}\n' }, ent.key);
  await codeWc.push();
  const pro = await tp.newOrg('wf-browser-pro');
  await m.Organization.updateOne({ _id: pro.orgId }, { $set: { plan: 'pro' } });
  await addMember(m, pro.orgId, 'wf-pro@example.com', 'owner', PASSWORD);
  const proDocs = (await tp.api('POST', '/projects', { name: 'Pro docs', slug: 'wfb-pro' }, pro.key)).body;
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const errors: string[] = [];

  t.test('should create a push workflow, run it from a git push and list the run', async (t) => {
    const page = await signedInPage(browser, origin, 'wf-owner@example.com', PASSWORD, errors);
    await page.goto(`${origin}/projects/${docs.id}/workflows`);
    await page.getByRole('heading', { level: 1, name: 'Workflows' }).waitFor();
    t.equal(await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Workflows' }).getAttribute('aria-current'), 'page', 'a tab of the project');
    await page.getByText('No workflows yet.').waitFor();
    await page.getByLabel('Name').fill('Widgets');
    await page.getByLabel('Instructions').fill('Document what the code change adds.');
    t.equal(await page.getByLabel('Code project').inputValue(), code.id, 'the other project is offered as the code');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.locator('.workflows li', { hasText: 'Widgets' }).waitFor();
    t.match(await page.locator('.workflows li').innerText(), 'On a push to main of Widget service · review branch');

    model.script.push({ toolCalls: [{ name: 'write_page', arguments: { path: 'widgets.mdx', content: '# Widgets\n\nList them with `listWidgets(color)`.\n' } }] }, { toolCalls: [{ name: 'finish', arguments: { summary: 'Documented widgets.' } }] });
    await codeWc.write({ 'src/widgets.ts': 'export function listWidgets(color?: string) {}\n' });
    await codeWc.push();
    for (let i = 0; i < 100; i++) {
      const run = await agentRunModel(m).findOne({ project_id: docs.id, workflow_id: { $ne: null } }).lean();
      if (run && run.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await page.reload();
    const row = page.getByRole('region', { name: 'Workflow runs' }).locator('tbody tr').first();
    await row.waitFor();
    const text = await row.innerText();
    t.match(text, /Widgets\s+Code push\s+.+\s+Finished\s+2\s+Review branch agent\/[0-9a-f-]+ · Documented widgets\./);
    await page.context().close();
  });

  t.test('should tell a Pro organization which plan workflows need', async (t) => {
    const page = await signedInPage(browser, origin, 'wf-pro@example.com', PASSWORD, errors);
    await page.goto(`${origin}/projects/${proDocs.id}/workflows`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    t.match(await alert.innerText(), 'needs the Enterprise plan');
    t.equal(await page.getByRole('button', { name: 'Create workflow' }).count(), 0);
    await page.context().close();
    t.same(errors.filter((e) => !/402|Payment Required/.test(e)), []);
  });
});
