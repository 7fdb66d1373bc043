import t from 'tap';
import { launchBrowser } from '../../../site-template/test/helpers/browser.ts';
import { AGENTS_ONLY, API_KEYS_PAGE } from './fixture-pages.ts';
import { startStandIn } from './llm-stand-in.ts';
import { startSiteFixture } from './site-fixture.ts';

t.test('assistant panel in Chromium', async (t) => {
  const llm = await startStandIn();
  t.teardown(() => llm.close());
  const f = await startSiteFixture({ env: { ASSISTANT_LLM_URL: llm.url } });
  t.teardown(() => f.close());
  const acme = await f.publish('pro', { 'docs/guides/api-keys.mdx': API_KEYS_PAGE });
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  // Chromium resolves *.localhost to the loopback address, so the site's own host name works.
  await page.goto(`http://${acme.slug}.localhost:${f.site.port}/quickstart`);

  t.test('should open from the header control, stream a cited answer, and keep search separate', async (t) => {
    const opened = page.waitForRequest((r) => r.url().endsWith('/_folio/assistant/open'));
    await page.click('header [data-control=assistant]');
    await page.waitForSelector('.assistant-dialog[open]');
    await opened;
    t.equal(await page.locator('.search-dialog[open]').count(), 0, 'not the search dialog');
    await page.fill('.assistant-input', 'What is the rate limit of the API?');
    const asked = page.waitForRequest((r) => r.url().endsWith('/_folio/assistant'));
    await page.keyboard.press('Enter');
    const headers = (await asked).headers();
    t.equal(headers['x-folio-client'], 'site-panel', 'the panel says it is the panel');
    t.match(headers['x-folio-reader'], /^[0-9a-f]{24}$/, 'with an anonymous reader id');
    await page.waitForSelector('.assistant-answer[data-mode=llm]');
    const answer = page.locator('.assistant-answer').last();
    t.equal(await answer.locator('.assistant-body').innerText(), 'From the docs: 600 requests per minute per key. [1]');
    t.equal(await answer.locator('.assistant-cite').getAttribute('href'), '/reference/api#rate-limits');
    t.same(await answer.locator('.assistant-sources a').first().evaluate((a) => [a.textContent, (a as HTMLAnchorElement).href]), [
      'API reference › Rate limits', `http://${acme.slug}.localhost:${f.site.port}/reference/api#rate-limits`,
    ]);
    t.same(f.usage.map((u) => u.kind).sort(), ['assistant_message', 'assistant_open']);
  });

  t.test('should reopen with Ctrl+I keeping the conversation, and follow a citation to its section', async (t) => {
    await page.keyboard.press('Escape');
    await page.waitForSelector('.assistant-dialog:not([open])', { state: 'attached' });
    await page.keyboard.press('Control+i');
    await page.waitForSelector('.assistant-dialog[open]');
    t.equal(await page.locator('.assistant-answer').count(), 1, 'the earlier answer is still there');
    await page.fill('.assistant-input', 'Which header should I send?');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('.assistant-answer[data-mode]').length === 2);
    const sent = llm.requests.at(-1)!.body.messages.filter((m: any) => m.role !== 'system').map((m: any) => m.role);
    t.same(sent, ['user', 'assistant', 'user'], 'the follow-up carries the conversation');
    await page.locator('.assistant-answer').last().locator('.assistant-cite').click();
    await page.waitForURL(/\/reference\/api#/);
    t.match(page.url(), `http://${acme.slug}.localhost:${f.site.port}/reference/api#`);
  });

  t.test('should show the best matching pages as clean search results when the model cannot answer', async (t) => {
    llm.mode = 'failing';
    await page.keyboard.press('Control+i');
    await page.waitForSelector('.assistant-dialog[open]');
    await page.fill('.assistant-input', 'How do I get an API key? Which button in the dashboard settings?');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.assistant-answer[data-reason=model_unavailable]');
    const answer = page.locator('.assistant-answer').last();
    t.equal(await answer.locator('.assistant-lead').innerText(), 'The assistant could not write an answer just now; here are the best matching pages.');
    const result = answer.locator('.assistant-result').filter({ has: page.getByRole('link', { name: 'API keys › Get an API key', exact: true }) });
    t.equal(await result.locator('.assistant-result-title').getAttribute('href'), '/guides/api-keys#get-an-api-key');
    t.equal((await result.locator('pre code').innerText()).trim(), 'curl -H "Authorization: Bearer $ACME_KEY" https://api.acme.test/v1/me');
    t.match(await result.locator('blockquote').innerText(), 'Warning: Treat the API key like a password');
    const text = await answer.innerText();
    for (const raw of ['> ', '![', '```', AGENTS_ONLY]) t.notMatch(text, raw, `no ${raw}`);
    t.equal(await answer.locator('img, script').count(), 0);
    llm.mode = 'grounded';
  });
});
