import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import * as pagefind from 'pagefind';
import t from 'tap';
import { launchBrowser } from '../../../site-template/test/helpers/browser.ts';
import { createExampleSite } from '../../../site-template/test/helpers/example-site.ts';
import { sampleSite } from '../../../site-template/src/node/sample-site.tsx';
import { startTestPlatform } from '../helpers/platform.ts';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

t.test('analytics beacons from a real browser', async (t) => {
  const tp = await startTestPlatform();
  const browser = await launchBrowser();
  t.teardown(async () => { await browser.close(); await tp.close(); });
  const project = (await tp.api('POST', '/projects', { name: 'Beacons', slug: 'beacons' })).body;

  // A built site: the template's client bundle, one page, its Pagefind index; published to the project's prefix.
  const site = await createExampleSite();
  await site.addPage('/guides/sdk/');
  const { index } = await pagefind.createIndex({});
  await index!.addHTMLFile({ url: '/guides/sdk', content: await readFile(join(site.dir, 'guides/sdk/index.html'), 'utf8') });
  await index!.writeFiles({ outputPath: join(site.dir, '_pagefind') });
  await pagefind.close();
  for await (const file of walk(site.dir)) await tp.p.store.put(`sites/${project.id}/${relative(site.dir, file)}`, await readFile(file));

  const context = await browser.newContext({ userAgent: CHROME });
  const page = await context.newPage();
  const origin = `http://beacons.localhost:${tp.p.site.port}`;

  /**
   * Waits until the recorder has written an event of `kind` (the beacon is asynchronous by design),
   * for two minutes at most: an event that never comes fails its subtest with a reason instead of
   * holding the whole file until the runner's timeout.
   */
  const eventOf = async (kind: string, projection: Record<string, number> = { _id: 0, kind: 1, source: 1, path: 1, vote: 1, query: 1, result_count: 1, bot: 1, browser: 1 }, projectId: string = project.id) => {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`no ${kind} event was recorded within two minutes`);
      await tp.p.analytics.flush();
      const hit = await tp.p.cp.m.AnalyticsEvent.collection.findOne({ project_id: projectId, kind }, { projection });
      if (hit) return hit;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  t.test('should record the page view, a feedback vote and a search, and show them in the overview', async (t) => {
    const res = await page.goto(`${origin}/guides/sdk`);
    t.equal(res?.status(), 200);
    await page.click('[data-feedback=up]');
    t.equal(await page.textContent('.feedback-thanks'), 'Thanks for the feedback!');
    await page.click('.search-open');
    await page.fill('.search-input', 'authenticating');
    await page.waitForSelector('.search-result');
    await page.keyboard.press('Escape');

    t.same(await eventOf('page_view'), { kind: 'page_view', source: 'server', path: '/guides/sdk', bot: false, browser: 'Chrome' });
    t.same(await eventOf('feedback'), { kind: 'feedback', source: 'beacon', path: '/guides/sdk', vote: 'up', bot: false, browser: 'Chrome' });
    t.same(await eventOf('search'), { kind: 'search', source: 'beacon', path: '/guides/sdk', query: 'authenticating', result_count: 1, bot: false, browser: 'Chrome' });

    const overview = await tp.api('GET', `/projects/${project.id}/analytics/overview`);
    t.same(overview.body.totals, { views: 1, searches: 1, feedback_up: 1, feedback_down: 0, unique_visitors: 1 });
    const searches = await tp.api('GET', `/projects/${project.id}/analytics/breakdown?dimension=searches`);
    t.same(searches.body.results, [{ query: 'authenticating', count: 1, avg_result_count: 1 }]);
  });

  t.test('should record time on page when the page is hidden', async (t) => {
    // Leaving the page fires pagehide, the moment the template sends time on page, if the page was
    // visible for a second at least. The previous subtest can take less than that on a fast
    // machine, so wait until the page has been up (its scripts ran before its load event) for 1.2 s.
    const shortOf = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      return Math.max(0, (nav?.loadEventEnd || performance.now()) + 1_200 - performance.now());
    });
    await new Promise((r) => setTimeout(r, shortOf));
    await page.goto('about:blank');
    const engagement = await eventOf('engagement', { _id: 0, path: 1, source: 1, duration_ms: 1 });
    t.same([engagement.path, engagement.source, engagement.duration_ms >= 1000], ['/guides/sdk', 'beacon', true]);
  });

  t.test('should post beacons under the base path of a site served below a path, recording site paths', async (t) => {
    // The site is built for https://host/docs/ and served by a proxy that strips /docs before the
    // site server, as a company site mounting its docs would; anything outside /docs is not ours.
    const based = (await tp.api('POST', '/projects', { name: 'Based', slug: 'based-beacons' })).body;
    const baseSite = await createExampleSite();
    await baseSite.addPage('/guides/sdk/', { ...sampleSite(), basePath: '/docs' });
    for await (const file of walk(baseSite.dir)) await tp.p.store.put(`sites/${based.id}/${relative(baseSite.dir, file)}`, await readFile(file));
    const outside: string[] = [];
    const proxy = http.createServer((req, res) => {
      const url = req.url ?? '/';
      if (!url.startsWith('/docs/')) {
        // The browser's own favicon probe is not the site's doing; a platform endpoint is.
        if (url.startsWith('/_folio/')) outside.push(`${req.method} ${url}`);
        res.writeHead(404).end();
        return;
      }
      const upstream = http.request({ host: '127.0.0.1', port: tp.p.site.port, method: req.method, path: url.slice('/docs'.length), headers: { ...req.headers, host: 'based-beacons.localhost' } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
    const basePage = await context.newPage();
    const res = await basePage.goto(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}/docs/guides/sdk`);
    t.equal(res?.status(), 200);
    await basePage.click('[data-feedback=up]');
    t.equal(await basePage.textContent('.feedback-thanks'), 'Thanks for the feedback!');
    // The client script was running by the time the vote worked: time on page counts from before now.
    const scriptRunningAt = await basePage.evaluate(() => performance.now());
    t.same(await eventOf('page_view', undefined, based.id), { kind: 'page_view', source: 'server', path: '/guides/sdk', bot: false, browser: 'Chrome' });
    t.same(await eventOf('feedback', undefined, based.id), { kind: 'feedback', source: 'beacon', path: '/guides/sdk', vote: 'up', bot: false, browser: 'Chrome' });
    // Time on page goes to the other endpoint (/_folio/event) once the page has been visible a second.
    await basePage.waitForFunction((since) => performance.now() > since + 1100, scriptRunningAt, { timeout: 0 });
    await basePage.goto('about:blank');
    const engagement = await eventOf('engagement', { _id: 0, path: 1, source: 1 }, based.id);
    t.same(engagement, { path: '/guides/sdk', source: 'beacon' });
    t.same(outside, [], 'no platform endpoint was called outside the base path');
  });
});
