import t from 'tap';
import type { Page } from 'playwright-core';
import { renderApiOperation } from '../../src/components/api-operation.tsx';
import { sampleSite } from '../../src/node/sample-site.tsx';
import type { ApiField } from '../../src/shared/api-types.ts';
import { browseStatic } from '../helpers/browser.ts';
import { createExampleSite } from '../helpers/example-site.ts';
import { listRocketsView } from '../fixtures/api-operation.ts';

/** Enough body fields that the operation is taller than the window, so the aside has somewhere to stick. */
const MANY: ApiField[] = Array.from({ length: 30 }, (_, i) => ({ name: `field_${i}`, type: 'string', description: `What field ${i} holds, in a sentence or two of plain text.` }));

/** Where the operation, the aside and the table of contents are drawn, and how far the page scrolls sideways. */
const BOXES = `(() => {
  const box = (sel) => { const el = document.querySelector(sel); if (!el) return null; const r = el.getBoundingClientRect(); return r.width ? { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right) } : null; };
  const header = document.querySelector('.site-header').getBoundingClientRect();
  const code = document.querySelector('.api-code code').getBoundingClientRect().left - document.querySelector('.api-example .code-block').getBoundingClientRect().left;
  return { main: box('.api-main'), aside: box('.api-aside'), toc: box('.toc'), headerBottom: Math.round(header.bottom), codeInset: Math.round(code), overflow: document.documentElement.scrollWidth - innerWidth };
})()`;

interface Boxes { main: Rect; aside: Rect; toc: Rect | null; headerBottom: number; codeInset: number; overflow: number }
interface Rect { top: number; bottom: number; left: number; right: number }

t.test('api page', async (t) => {
  const site = await createExampleSite();
  const view = listRocketsView();
  const bodyHtml = renderApiOperation({ ...view, body: { ...view.body!, fields: [...view.body!.fields, ...MANY] } });
  const toc = ['parameters', 'request-body', 'responses', 'examples', 'try-it'].map((id) => ({ depth: 2, id, text: id }));
  await site.addPage('/api/launch', sampleSite('larch', { appearance: { default: 'light', strict: false } }), {
    page: { path: '/api/launch', title: 'Launch a rocket', bodyHtml, toc, rss: false, markdownPath: '/api/launch.md', feedPath: '/api/launch/rss.xml' },
  });
  const { server, browser } = await browseStatic(t, site.dir);
  const page = await browser.newPage({ viewport: { width: 1440, height: 700 } });
  const load = async (p: Page, width: number) => {
    await p.setViewportSize({ width, height: 700 });
    await p.goto(`${server.origin}/api/launch`);
    await p.waitForSelector('[data-api-try][data-ready]');
  };

  t.test('should show Try it and the examples beside the operation on wide screens, sticky under the header', async (t) => {
    for (const width of [1280, 1440, 1600]) {
      await load(page, width);
      const top = await page.evaluate<Boxes>(BOXES);
      t.ok(top.aside.left >= top.main.right, `${width} px: the aside (${top.aside.left}) starts right of the operation (${top.main.right})`);
      t.equal(top.aside.top, top.main.top, `${width} px: both start at the same height`);
      t.equal(top.toc, null, `${width} px: no table of contents beside it`);
      await page.evaluate(() => window.scrollTo(0, 900));
      const scrolled = await page.evaluate<Boxes>(BOXES);
      t.ok(scrolled.main.top < 0, `${width} px: the operation scrolled away`);
      t.ok(scrolled.aside.top >= scrolled.headerBottom && scrolled.aside.top <= scrolled.headerBottom + 24, `${width} px: the aside stays just under the header (${scrolled.aside.top}, header ${scrolled.headerBottom})`);
      t.equal(top.overflow, 0, `${width} px: nothing scrolls sideways`);
    }
  });

  t.test('should put Try it and the examples below the operation on narrower screens', async (t) => {
    for (const width of [390, 768, 1024]) {
      await load(page, width);
      const boxes = await page.evaluate<Boxes>(BOXES);
      t.ok(boxes.aside.top >= boxes.main.bottom, `${width} px: the aside (${boxes.aside.top}) below the operation (${boxes.main.bottom})`);
      t.equal(boxes.overflow, 0, `${width} px: nothing scrolls sideways`);
    }
  });

  t.test('should inset example code from the block\'s left edge like other code blocks', async (t) => {
    await load(page, 1440);
    t.ok((await page.evaluate<Boxes>(BOXES)).codeInset >= 16, 'at least 1rem');
  });

  t.test('should send the allowed value picked, and nothing for "not set"', async (t) => {
    await load(page, 1440);
    const sent: string[] = [];
    await page.route('https://*.acme.example/**', (route) => {
      sent.push(`${route.request().url()} x-priority=${route.request().headers()['x-priority']}`);
      return route.fulfill({ status: 200, contentType: 'application/json', body: '{"ok":true}', headers: { 'access-control-allow-origin': '*' } });
    });
    await page.fill('input[name="path:rocket_id"]', 'rkt_1');
    t.same(await page.locator('select[name="query:status"] option').allTextContents(), ['not set', 'ready', 'maintenance', 'retired']);
    await page.click('.api-try-send');
    await page.waitForFunction(() => document.querySelector('.api-try-status')?.textContent?.startsWith('200'));
    await page.selectOption('select[name="query:status"]', 'maintenance');
    await page.selectOption('select[name="header:X-Priority"]', '3');
    await page.evaluate(() => { document.querySelector('.api-try-status')!.textContent = ''; });
    await page.click('.api-try-send');
    await page.waitForFunction(() => document.querySelector('.api-try-status')?.textContent?.startsWith('200'));
    t.same(sent, [
      'https://api.acme.example/v2/rockets/rkt_1/launches x-priority=2',
      'https://api.acme.example/v2/rockets/rkt_1/launches?status=maintenance x-priority=3',
    ]);
    await page.unroute('https://*.acme.example/**');
  });

  t.test('should send to the server picked, with its variables', async (t) => {
    await load(page, 1440);
    const sent: string[] = [];
    await page.route('https://*.acme.example/**', (route) => {
      sent.push(route.request().url());
      return route.fulfill({ status: 204, headers: { 'access-control-allow-origin': '*' } });
    });
    t.equal(await page.isVisible('select[data-server-var=region]'), false, 'production has no variables');
    await page.selectOption('select[name=server-choice]', '1');
    t.equal(await page.inputValue('input[name=server]'), 'https://eu.sandbox.acme.example/v2', 'the defaults fill the sandbox URL');
    await page.selectOption('select[data-server-var=region]', 'us');
    await page.fill('input[data-server-var=version]', 'v3');
    t.equal(await page.inputValue('input[name=server]'), 'https://us.sandbox.acme.example/v3');
    await page.fill('input[name="path:rocket_id"]', 'rkt_2');
    await page.click('.api-try-send');
    await page.waitForFunction(() => document.querySelector('.api-try-status')?.textContent?.startsWith('204'));
    await page.selectOption('select[name=server-choice]', '0');
    t.equal(await page.inputValue('input[name=server]'), 'https://api.acme.example/v2', 'back to production');
    t.equal(await page.isVisible('select[data-server-var=region]'), false, 'the sandbox variables hide again');
    t.same(sent, ['https://us.sandbox.acme.example/v3/rockets/rkt_2/launches']);
  });
});
