/**
 * The AI model page in real Chromium: an owner saves a model (the key is never shown again, only
 * its last four characters), tests the connection against a stand-in model, sees a failure in
 * people's words, and removes the model; an editor has no such page. Checked with axe-core.
 */
import t from 'tap';
import { addMember, launchBrowser, seriousViolations, signedInPage } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { startStandIn } from '../assistant/llm-stand-in.ts';

const PASSWORD = 'a long enough passphrase';
const KEY = 'sk-dashboard-typed-key-5e6f';

t.test('dashboard: AI model', async (t) => {
  const llm = await startStandIn();
  t.teardown(() => llm.close());
  const tp = await startTestPlatform({ AI_MODEL_PRIVATE_HOSTS: new URL(llm.url).host });
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const origin = new URL(tp.p.cp.apiUrl).origin;
  await addMember(m, tp.orgId, 'ai-owner@example.com', 'owner', PASSWORD);
  await addMember(m, tp.orgId, 'ai-editor@example.com', 'editor', PASSWORD);
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const errors: string[] = [];
  const open = (email: string) => signedInPage(browser, origin, email, PASSWORD, errors);

  t.test('should save a model, keep its key hidden, test it and remove it', async (t) => {
    const page = await open('ai-owner@example.com');
    await page.getByRole('link', { name: 'AI model' }).click();
    await page.getByRole('heading', { level: 1, name: 'AI model' }).waitFor();
    t.match(await page.getByRole('region', { name: 'What answers now' }).innerText(), 'no model: readers get the best matching pages instead of a written answer');
    const form = page.getByRole('form', { name: 'Your model' });
    await form.getByLabel('Base URL').fill('http://10.1.2.3:11434/v1');
    await form.getByLabel('Model name').fill('stand-in-1');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('alert').waitFor();
    t.equal(await form.getByRole('alert').innerText(), 'Base URL: URL resolves to a private address (10.1.2.3); only public addresses are allowed', 'a refused address in people\'s words');
    await form.getByLabel('Base URL').fill(llm.url);
    await form.getByLabel('API key').fill(KEY);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved. Use "Test connection" to check that it answers.').waitFor();
    t.equal(await form.getByLabel('API key').inputValue(), '', 'the key is not shown again');
    // The saved settings are read back after the notice shows, so wait for the hint rather than read it at once.
    await form.getByText('A key ending in …5e6f is saved.').waitFor();
    t.match(await form.innerText(), 'A key ending in …5e6f is saved.');
    t.notMatch(await page.content(), KEY);
    await page.getByRole('region', { name: 'What answers now' }).getByText(/your model/).waitFor();
    t.match(await page.getByRole('region', { name: 'What answers now' }).innerText(), 'your model');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/^Connected: "stand-in-1" answered in/).waitFor();
    t.equal(llm.requests.at(-1)!.headers.authorization, `Bearer ${KEY}`);
    llm.mode = 'unauthorized';
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/refused the API key \(HTTP 401\)\. Check the key, or paste a new one\./).waitFor();
    llm.mode = 'grounded';
    t.same(await seriousViolations(page), []);
    await page.getByRole('button', { name: 'Remove your model' }).click();
    await page.getByRole('button', { name: 'Test connection' }).waitFor({ state: 'detached' });
    t.match(await page.getByRole('region', { name: 'What answers now' }).innerText(), 'no model');
  });

  t.test('should not offer the page to an editor', async (t) => {
    const page = await open('ai-editor@example.com');
    t.equal(await page.getByRole('link', { name: 'AI model' }).count(), 0);
  });

  t.test('should raise no page errors', async (t) => {
    t.same(errors, []);
  });
});
