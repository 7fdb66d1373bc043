/**
 * A page written Mintlify's way (`openapi: GET /users` in its frontmatter, its own
 * `<RequestExample>`) in Chromium: the examples column sits beside the content on a wide screen
 * and below it on a phone, and Try it sends the request to the API (a local server here).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { browseStatic } from '../../../site-template/test/helpers/browser.ts';
import { build } from '../../src/build.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

/** The API the page documents: answers every request with what it received, to any origin. */
async function startApi(t: { teardown(fn: () => unknown): void }): Promise<{ url: string; seen: Array<{ method: string; url: string; auth?: string }> }> {
  const seen: Array<{ method: string; url: string; auth?: string }> = [];
  const server = http.createServer((req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type', 'access-control-allow-methods': 'GET, POST' };
    if (req.method === 'OPTIONS') { res.writeHead(204, cors).end(); return; }
    seen.push({ method: req.method ?? '', url: req.url ?? '', ...(req.headers.authorization ? { auth: req.headers.authorization } : {}) });
    res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify([{ email: 'ada@example.com' }]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

t.test('a frontmatter API page in the browser', async (t) => {
  const api = await startApi(t);
  const dir = tempDir();
  makeRepo(dir, {
    'docs.json': JSON.stringify({ name: 'Shop', navigation: [{ group: 'API', pages: ['users'] }] }),
    'openapi.yaml': [
      'openapi: 3.0.3', 'info: { title: Shop, version: "1" }', `servers: [{ url: "${api.url}/v1" }]`,
      'components:', '  securitySchemes:', '    key: { type: http, scheme: bearer }', 'security: [{ key: [] }]',
      'paths:', '  /users:', '    get:', '      summary: List users',
      '      parameters:', '        - { name: limit, in: query, schema: { type: integer } }',
      '      responses:', '        "200": { description: The users }',
    ].join('\n'),
    'users.mdx': [
      '---', 'openapi: GET /users', '---', '',
      ...Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1} about listing users, long enough to take a line or two of the column on every screen size.\n`),
      '<RequestExample>', '', '```bash Own sample', `curl ${api.url}/v1/users`, '```', '', '</RequestExample>', '',
    ].join('\n'),
  });
  const out = tempDir();
  const result = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://shop.example', year: 2026 });
  t.same(result.errors, []);
  const { server, browser } = await browseStatic(t, out);
  const page = await browser.newPage();
  const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!;

  await t.test('should put the examples to the right of the content at 1280 px', async (t) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.origin}/users`);
    const [main, aside, own] = [await box('.api-main'), await box('.api-aside'), await box('.api-aside [data-example="request"]')];
    t.ok(aside.x >= main.x + main.width, `the column (x ${aside.x}) starts right of the content (ends at ${main.x + main.width})`);
    t.ok(aside.y < main.y + main.height, 'beside it, not below');
    t.ok(own.x >= main.x + main.width, 'the page\'s own example is in the column');
  });

  await t.test('should put them below the content at 390 px', async (t) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.origin}/users`);
    const [main, aside] = [await box('.api-main'), await box('.api-aside')];
    t.ok(aside.y >= main.y + main.height, `the column (y ${aside.y}) starts below the content (ends at ${main.y + main.height})`);
    t.ok(aside.width > 300, 'and takes the screen\'s width');
  });

  await t.test('should send Try it\'s request to the API and show its answer', async (t) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.origin}/users`);
    await page.waitForSelector('[data-api-try][data-ready]');
    t.equal(await page.inputValue('.api-try input[name=server]'), `${api.url}/v1`);
    await page.fill('.api-try input[name=key]', 'secret-key');
    await page.fill('.api-try input[name="query:limit"]', '5');
    await page.click('.api-try-send');
    await page.waitForSelector('.api-try-status[data-status]');
    t.equal(await page.textContent('.api-try-status'), '200 OK');
    t.same(JSON.parse((await page.textContent('.api-try-body'))!), [{ email: 'ada@example.com' }]);
    t.same(api.seen, [{ method: 'GET', url: '/v1/users?limit=5', auth: 'Bearer secret-key' }]);
  });
});
