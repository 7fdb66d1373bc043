import t from 'tap';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { Browser, Page } from 'playwright-core';
import { components } from '../../src/components/index.ts';
import { sampleSite } from '../../src/node/sample-site.tsx';
import { launchBrowser } from '../helpers/browser.ts';
import { createExampleSite } from '../helpers/example-site.ts';
import { serveStatic, type StaticServer } from '../helpers/static-server.ts';

const { CodeGroup, Accordion, AccordionGroup, ResponseField, Expandable, Tooltip, Mermaid, Frame, Prompt } = components;

/** A code block in the builder's markup contract (README), without highlighting. */
const block = (title: string, code: string) =>
  `<figure class="code-block" data-lang="ts"><figcaption class="code-title">${title}</figcaption><div class="code-badge">ts</div>` +
  '<button class="code-copy" type="button" aria-label="Copy code" hidden>copy</button>' +
  `<pre class="shiki"><code><span class="line">${code}</span></code></pre><template class="code-raw">${code}</template></figure>`;

const dataImage = (fill: string) => `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="${fill}"/></svg>`)}`;

const BODY = [
  renderToString(h(CodeGroup, null, h('div', { dangerouslySetInnerHTML: { __html: block('npm', 'npm i acme') + block('pnpm', 'pnpm add acme') } }))).replace(/<div>([\s\S]*)<\/div><\/div>$/, '$1</div>'),
  renderToString(h(AccordionGroup, null, h(Accordion, { title: 'Why Folio?' }, h('p', null, 'Because it is fast.')))),
  renderToString(h(ResponseField, { name: 'user', type: 'object' }, h(Expandable, { title: 'properties' }, h(ResponseField, { name: 'id', type: 'string' }, 'The id.')))),
  renderToString(h('p', null, 'An ', h(Tooltip, { tip: 'Application programming interface' }, 'API'), ' term.')),
  renderToString(h(Mermaid, { chart: 'graph TD\n  Start --> Finish' })),
  renderToString(h(Frame, { src: dataImage('#fff'), srcDark: dataImage('#000'), alt: 'Chart' })),
  renderToString(h(Prompt, { description: 'Ask' }, 'Write a test')),
].join('\n');

t.test('components in the browser', async (t) => {
  const site = await createExampleSite();
  await site.addPage('/components', sampleSite(), { page: { bodyHtml: BODY } as never });
  const server: StaticServer = await serveStatic(site.dir);
  const browser: Browser = await launchBrowser();
  t.teardown(async () => {
    await browser.close();
    await server.close();
  });
  const open = async (): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    const page = await context.newPage();
    await page.goto(`${server.origin}/components`);
    return page;
  };

  t.test('should switch CodeGroup tabs by click and arrow keys, with one visible copy button', async (t) => {
    const page = await open();
    const group = page.locator('[data-code-group]');
    await group.locator('[role=tab]').first().waitFor();
    t.same(await group.locator('[role=tab]').allTextContents(), ['npm', 'pnpm']);
    t.same(await group.locator('figure.code-block').evaluateAll((els) => els.map((e) => (e as HTMLElement).hidden)), [false, true]);
    await group.locator('[role=tab]', { hasText: 'pnpm' }).click();
    t.same(await group.locator('figure.code-block').evaluateAll((els) => els.map((e) => (e as HTMLElement).hidden)), [true, false]);
    await page.keyboard.press('ArrowLeft');
    t.equal(await group.locator('[aria-selected=true]').textContent(), 'npm');
    t.equal(await group.locator('.code-copy:visible').count(), 1);
    await group.locator('figure.code-block:visible').hover();
    await group.locator('.code-copy:visible').click();
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), 'npm i acme');
    await page.context().close();
  });

  t.test('should open and close Accordion and Expandable from the keyboard', async (t) => {
    const page = await open();
    const accordion = page.locator('details.accordion');
    t.equal(await accordion.getAttribute('open'), null);
    t.notOk(await page.getByText('Because it is fast.').isVisible());
    await accordion.locator('summary').focus();
    await page.keyboard.press('Enter');
    t.equal(await accordion.getAttribute('open'), '');
    t.ok(await page.getByText('Because it is fast.').isVisible());
    const expandable = page.locator('details.expandable');
    t.notOk(await page.getByText('The id.').isVisible());
    await expandable.locator('summary').click();
    t.ok(await page.getByText('The id.').isVisible());
    await page.context().close();
  });

  t.test('should show a tooltip on hover and on keyboard focus', async (t) => {
    const page = await open();
    const tip = page.locator('.tooltip-tip');
    t.notOk(await tip.isVisible());
    await page.locator('.tooltip').hover();
    await tip.waitFor({ state: 'visible' });
    t.ok(await tip.isVisible());
    await page.mouse.move(0, 0);
    await tip.waitFor({ state: 'hidden' });
    await page.locator('.tooltip').focus();
    await tip.waitFor({ state: 'visible' });
    t.equal(await page.locator('.tooltip').getAttribute('aria-describedby'), await tip.getAttribute('id'));
    await page.context().close();
  });

  t.test('should draw a Mermaid diagram, loading the library only on pages that have one', async (t) => {
    const page = await open();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.locator('figure[data-mermaid]').waitFor();
    t.comment(errors.join('\n'));
    await page.locator('figure[data-mermaid][data-ready] .mermaid-svg svg').waitFor();
    t.ok(await page.locator('.mermaid-source').isHidden(), 'the source gives way to the diagram');
    t.match(await page.locator('.mermaid-svg svg').textContent(), /Start[\s\S]*Finish/);
    const plain = await (await browser.newContext()).newPage();
    const requests: string[] = [];
    plain.on('request', (r) => requests.push(r.url()));
    await site.addPage('/plain');
    await plain.goto(`${server.origin}/plain`, { waitUntil: 'networkidle' });
    t.same(requests.filter((u) => u.includes('mermaid')), [], 'no Mermaid request without a diagram');
    await plain.context().close();
    await page.context().close();
  });

  t.test('should show the image variant of the current mode', async (t) => {
    const light = await open();
    t.same([await light.locator('.img-light').isVisible(), await light.locator('.img-dark').isVisible()], [true, false]);
    await light.click('.header-controls [data-control=appearance]');
    t.same([await light.locator('.img-light').isVisible(), await light.locator('.img-dark').isVisible()], [false, true]);
    await light.context().close();
  });

  t.test('should copy a prompt\'s text', async (t) => {
    const page = await open();
    await page.locator('figure.prompt').hover();
    await page.locator('figure.prompt .code-copy').click();
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), 'Write a test');
    await page.context().close();
  });
});
