import t from 'tap';
import { browseStatic } from '../../../site-template/test/helpers/browser.ts';
import { build } from '../../src/build.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir, writeFiles } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const AUTH = `# Authentication

<Tabs>
  <Tab title="API key">Send the key in a header.</Tab>
  <Tab title="OAuth 2.0">Exchange a code for a token.</Tab>
</Tabs>

[Use an API key](#api-key)
`;

t.test('Tab ids from titles', async (t) => {
  const dir = tempDir();
  writeFiles(dir, {
    'docs.json': JSON.stringify({ name: 'Tabs', navigation: { pages: ['index', 'auth'] } }),
    'index.mdx': '# Home\n\n[OAuth](/auth#oauth-2-0) and [a missing tab](/auth#oauth-3-0)\n',
    'auth.mdx': AUTH,
  });
  const out = tempDir();
  const res = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://tabs.test', year: 2026 });

  await t.test('should let the link check know the tab ids', async (t) => {
    t.same(res.errors, []);
    t.same(res.warnings, ['index.mdx:3:30: Unexpected anchor #oauth-3-0; expected the id of a heading or element on /auth']);
  });

  await t.test('should open the tab a link names, on load and on the same page', async (t) => {
    const { server, browser } = await browseStatic(t, out);
    const page = await browser.newPage();
    const selected = () => page.locator('.tabs [role=tab][aria-selected=true]').textContent();
    await page.goto(`${server.origin}/auth#oauth-2-0`);
    await page.waitForSelector('.tabs[data-ready]');
    t.equal(await selected(), 'OAuth 2.0');
    t.equal(await page.isVisible('text=Exchange a code for a token.'), true);
    t.equal(await page.isVisible('text=Send the key in a header.'), false);
    await page.click('a[href="#api-key"]');
    await page.waitForFunction(() => document.querySelector('.tabs [role=tab][aria-selected=true]')?.textContent === 'API key');
    t.equal(await page.isVisible('text=Send the key in a header.'), true);
    await page.goto(`${server.origin}/`);
    await page.click('a[href="/auth#oauth-2-0"]');
    await page.waitForURL(`${server.origin}/auth#oauth-2-0`);
    await page.waitForSelector('.tabs[data-ready]');
    t.equal(await selected(), 'OAuth 2.0', 'from another page');
  });
});
