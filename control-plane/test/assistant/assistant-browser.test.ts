import t from 'tap';
import { launchBrowser } from '../../../site-template/test/helpers/browser.ts';
import { startStandIn } from './llm-stand-in.ts';
import { startSiteFixture } from './site-fixture.ts';

t.test('assistant panel in Chromium', async (t) => {
  const llm = await startStandIn();
  t.teardown(() => llm.close());
  const f = await startSiteFixture({ env: { ASSISTANT_LLM_URL: llm.url } });
  t.teardown(() => f.close());
  const acme = await f.publish('pro');
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
    await page.keyboard.press('Enter');
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
});
