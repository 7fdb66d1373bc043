import t from 'tap';
import { launchBrowser } from '../../../site-template/test/helpers/browser.ts';
import { POWERED_BY_CLASS, POWERED_BY_GENERATOR, POWERED_BY_TEXT } from '@folio/site-template/shared/powered-by.ts';
import { BRANDING_TTL_MS } from '../../src/sites/site-branding.ts';
import { setSitePassword } from '../../src/sites/password-settings.ts';
import { setReaderAuth } from '../../src/sites/reader-auth/reader-settings.ts';
import { JWT_SETTINGS } from '../reader-auth/reader-site.ts';
import { startTestPlatform } from '../helpers/platform.ts';

/**
 * The same site built for a free, a pro and a team organization: every kind of page a reader can
 * reach carries the "Powered by Folio" badge on free and pro, and on team neither the badge nor
 * any word of the platform's name. The badge follows the plan at serve time.
 */

const OPENAPI = JSON.stringify({
  openapi: '3.1.0', info: { title: 'Acme API', version: '1' },
  paths: { '/widgets': { get: { operationId: 'listWidgets', summary: 'List widgets', responses: { 200: { description: 'The widgets' } } } } },
});

const SITE = {
  'docs.json': JSON.stringify({ name: 'Acme Docs', api: { openapi: 'openapi.json' } }),
  'openapi.json': OPENAPI,
  'docs/index.mdx': '---\ntitle: Welcome\n---\n\nWelcome to Acme.\n',
  'docs/changelog.mdx': '---\ntitle: Changelog\nrss: true\n---\n\n<Update label="March 2026" description="Widgets">\n\nWidgets arrived.\n\n</Update>\n',
};

/** The platform's name in any spelling a reader could see (paths like `/_folio/` are lowercase and not shown). */
const PLATFORM_WORD = /Folio|Powered by/;

t.test('white labeling', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);
  const plans = ['free', 'pro', 'team'] as const;
  const sites: Record<string, { id: string; slug: string; key: string; orgId: string }> = {};
  for (const plan of plans) {
    const org = await tp.newOrg(`white-label-${plan}-${process.pid}`);
    await m.Organization.updateOne({ _id: org.orgId }, { $set: { plan } });
    const slug = `acme-${plan}`;
    const created = await tp.api('POST', '/projects', { name: `Acme ${plan}`, slug }, org.key);
    t.equal(created.status, 201, JSON.stringify(created.body));
    sites[plan] = { id: created.body.id, slug, key: org.key, orgId: org.orgId };
    const wc = await tp.workingCopy(slug, SITE, org.key);
    const sha = await wc.push();
    const d = await tp.waitForDeployment(created.body.id, (x) => x.commit_sha === sha && x.status !== 'queued' && x.status !== 'building', undefined, org.key);
    t.equal(d.status, 'deployed', d.error ?? '');
  }
  const keys = await tp.p.store.list(`sites/${sites.team.id}/`);
  const apiKey = keys.map((k) => k.slice(`sites/${sites.team.id}`.length)).find((k) => /widgets/.test(k) && k.endsWith('.html'));
  t.ok(apiKey, 'the API page was published');
  const apiPath = apiKey!.replace(/(\/index)?\.html$/, '') || '/';
  const pages: [string, string, number][] = [
    ['content page', '/', 200], ['API page', apiPath, 200], ['404 page', '/no-such-page', 404], ['changelog page', '/changelog', 200],
  ];

  t.test('should show the badge on every page of free and pro sites', async (t) => {
    for (const plan of ['free', 'pro'] as const) {
      for (const [what, path, status] of pages) {
        const res = await tp.site(sites[plan].slug, path);
        t.equal(res.status, status, `${plan} ${what}`);
        t.equal(res.body.split(`class="${POWERED_BY_CLASS}"`).length - 1, 1, `${plan} ${what}: one badge`);
        t.match(res.body, `>${POWERED_BY_TEXT}</a></div></body>`, `${plan} ${what}: at the end of the body`);
        t.match(res.body, /class="search-open js-only"/, `${plan} ${what}: the search dialog's markup is there`);
      }
      const feed = await tp.site(sites[plan].slug, '/rss.xml');
      t.match(feed.body, `<channel>\n${POWERED_BY_GENERATOR}\n<title>Acme Docs</title>`, `${plan} feed names the generator, titled with the site's name`);
    }
  });

  t.test('should show no platform branding anywhere on a team site', async (t) => {
    for (const [what, path, status] of pages) {
      const res = await tp.site(sites.team.slug, path);
      t.equal(res.status, status, what);
      t.notMatch(res.body, PLATFORM_WORD, `team ${what}`);
      t.notMatch(res.body, POWERED_BY_CLASS, `team ${what}: no badge`);
      t.match(res.body, /class="search-open js-only"/, `team ${what}: the search dialog's markup is there`);
    }
    const notFound = await tp.site(sites.team.slug, '/no-such-page');
    t.match(notFound.body, /<title>Page not found[^<]*Acme Docs<\/title>/, 'the 404 page is titled with the site\'s name');
    for (const path of ['/rss.xml', '/changelog/rss.xml', '/llms.txt', '/sitemap.xml', '/robots.txt']) {
      const res = await tp.site(sites.team.slug, path);
      t.equal(res.status, 200, path);
      t.notMatch(res.body, PLATFORM_WORD, `team ${path}`);
    }
    t.match((await tp.site(sites.team.slug, '/rss.xml')).body, '<title>Acme Docs</title>', 'the feed is titled with the site\'s name');
    // The search dialog and the assistant panel are built in the browser by the client script: its words count too.
    const home = (await tp.site(sites.team.slug, '/')).body;
    const assets = [...new Set([...home.matchAll(/"(\/_folio\/[^"?#]+\.(?:js|css))"/g)].map((m) => m[1]))];
    t.ok(assets.some((a) => a.endsWith('.js')), 'the page loads a client script');
    for (const asset of assets) {
      const res = await tp.site(sites.team.slug, asset);
      t.equal(res.status, 200, asset);
      t.notMatch(res.body, PLATFORM_WORD, `team ${asset}`);
      // Chunks the script imports later (the assistant panel): `import(\`./assistant-….js\`)`.
      for (const chunk of new Set([...res.body.matchAll(/["'`]\.\/([\w-]+\.js)["'`]/g)].map((m) => m[1]))) {
        const lazy = await tp.site(sites.team.slug, `/_folio/${chunk}`);
        t.equal(lazy.status, 200, chunk);
        t.notMatch(lazy.body, PLATFORM_WORD, `team lazy ${chunk}`);
      }
    }
  });

  t.test('should answer a different ETag once the badge comes or goes', async (t) => {
    const free = await tp.site(sites.free.slug, '/');
    const team = await tp.site(sites.team.slug, '/');
    t.match(free.headers.get('etag'), /-badge"$/);
    t.notMatch(team.headers.get('etag'), /-badge/);
  });

  t.test('should follow a plan change without a new build', async (t) => {
    const badgeOn = async (slug: string) => (await tp.site(slug, '/')).body.includes(POWERED_BY_TEXT);
    const waitFor = async (slug: string, want: boolean) => {
      // The site server keeps a project's answer for BRANDING_TTL_MS; asked until it changes, at most 20 times that.
      for (let i = 0; i < 80 && await badgeOn(slug) !== want; i++) await new Promise((r) => setTimeout(r, BRANDING_TTL_MS / 4));
      return badgeOn(slug);
    };
    await m.Organization.updateOne({ _id: sites.team.orgId }, { $set: { plan: 'free' } });
    t.equal(await waitFor(sites.team.slug, true), true, 'a downgraded team site gets the badge');
    await m.Organization.updateOne({ _id: sites.team.orgId }, { $set: { plan: 'enterprise' } });
    t.equal(await waitFor(sites.team.slug, false), false, 'an upgraded site loses it again');
    const deployments = await tp.api('GET', `/projects/${sites.team.id}/deployments`, undefined, sites.team.key);
    t.equal(deployments.body.data.length, 1, 'no deployment was made for it');
    await m.Organization.updateOne({ _id: sites.team.orgId }, { $set: { plan: 'team' } });
    t.equal(await waitFor(sites.team.slug, false), false);
  });

  t.test('should brand the password page on free and pro only, titled with the site\'s name', async (t) => {
    const ctx = { m, now: new Date(), upgradeUrl: 'https://folio.dev/pricing' };
    for (const plan of plans) {
      // Password protection is a pro feature that keeps working after a downgrade: set it on pro, then move the plan.
      await m.Organization.updateOne({ _id: sites[plan].orgId }, { $set: { plan: 'pro' } });
      await setSitePassword(ctx, sites[plan].orgId, sites[plan].id, 'open sesame');
      await m.Organization.updateOne({ _id: sites[plan].orgId }, { $set: { plan } });
    }
    // The plan was moved under the site server's cache: wait until the team site reads team again.
    for (let i = 0; i < 80 && (await tp.site(sites.team.slug, '/_folio/password')).body.includes(POWERED_BY_TEXT); i++) await new Promise((r) => setTimeout(r, BRANDING_TTL_MS / 4));
    for (const plan of plans) {
      for (const path of ['/_folio/password', '/guide']) {
        const res = await tp.site(sites[plan].slug, path);
        t.equal(res.status, path === '/guide' ? 401 : 200, `${plan} ${path}`);
        t.match(res.body, `<title>Acme ${plan} — password required</title>`, `${plan} ${path}: the site's name`);
        if (plan === 'team') t.notMatch(res.body, PLATFORM_WORD, `team ${path}`);
        else t.match(res.body, `>${POWERED_BY_TEXT}</a></div></main>`, `${plan} ${path}: the badge under the form`);
      }
    }
    for (const plan of plans) await m.Project.updateOne({ _id: sites[plan].id }, { $set: { site_password_hash: null, site_password_set_at: null } });
  });

  t.test('should brand the readers\' sign-in page on free and pro only, titled with the site\'s name', async (t) => {
    const ctx = { m, now: new Date(), upgradeUrl: 'https://folio.dev/pricing' };
    for (const plan of plans) {
      // Signed-in readers are a pro feature that keeps working after a downgrade: set it on pro, then move the plan.
      await m.Organization.updateOne({ _id: sites[plan].orgId }, { $set: { plan: 'pro' } });
      await setReaderAuth(ctx, sites[plan].orgId, sites[plan].id, JWT_SETTINGS);
      await m.Organization.updateOne({ _id: sites[plan].orgId }, { $set: { plan } });
    }
    for (let i = 0; i < 80 && (await tp.site(sites.team.slug, '/_folio/sign-in')).body.includes(POWERED_BY_TEXT); i++) await new Promise((r) => setTimeout(r, BRANDING_TTL_MS / 4));
    for (const plan of plans) {
      const res = await tp.site(sites[plan].slug, '/_folio/sign-in');
      t.equal(res.status, 200, `${plan} sign-in page`);
      t.match(res.body, `<title>Acme ${plan} — sign in</title>`, `${plan}: the site's name`);
      if (plan === 'team') t.notMatch(res.body, PLATFORM_WORD, 'team sign-in page');
      else t.match(res.body, `>${POWERED_BY_TEXT}</a></div></main>`, `${plan}: the badge under the button`);
    }
    for (const plan of plans) await m.Project.updateOne({ _id: sites[plan].id }, { $set: { reader_auth: null } });
  });

  t.test('should keep the badge visible, small and clear of the content at 390 and 1280 px', async (t) => {
    const browser = await launchBrowser();
    t.teardown(() => browser.close());
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      await page.goto(`http://${sites.free.slug}.localhost:${tp.p.site.port}/`, { waitUntil: 'load' });
      const badge = page.locator(`.${POWERED_BY_CLASS} a`);
      t.ok(await badge.isVisible(), `${width}: visible`);
      const box = (await badge.boundingBox())!;
      t.ok(box.height <= 32 && box.width <= 200, `${width}: small (${box.width}×${box.height})`);
      const overlaps = await page.evaluate((cls) => {
        const b = document.querySelector(`.${cls} a`)!.getBoundingClientRect();
        const others = [...document.querySelectorAll('header, main, nav, aside, footer, .layout')].map((e) => e.getBoundingClientRect());
        return others.filter((o) => o.width > 0 && o.height > 0 && b.left < o.right && b.right > o.left && b.top < o.bottom && b.bottom > o.top).length;
      }, POWERED_BY_CLASS);
      t.equal(overlaps, 0, `${width}: overlaps no header, navigation, content or footer`);
      await context.close();
    }
  });
});
