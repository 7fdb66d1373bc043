import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../../site-template/test/helpers/browser.ts';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.ts';

/**
 * A hostile repository's pages and stylesheets try to make readers' browsers load from another
 * origin (a second server on 127.0.0.1, "evil"): Tailwind arbitrary values on the free plan,
 * custom CSS with escape and whitespace tricks on pro, and an inline style (which only the
 * Content-Security-Policy stops). Every request the browser makes is watched: none may leave the
 * site's origin, and the evil server must see nothing.
 */

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

/** Tailwind classes whose arbitrary values name `evil` (host:port), each on a box that renders. */
function tailwindPayloads(evil: string): string[] {
  return [
    `bg-[url(http://${evil}/tw-1.png)]`,
    `bg-[url('//${evil}/tw-2.png')]`,
    `[mask-image:url(http://${evil}/tw-3.svg)]`,
    `[-webkit-mask-image:url(http://${evil}/tw-4.svg)]`,
    `[cursor:url(http://${evil}/tw-5.cur),auto]`,
    `bg-[image:image-set('http://${evil}/tw-6.png'_1x)]`,
    `[background:url('/\\9/${evil}/tw-7.png')]`,
    `[border-image:url(http://${evil}/tw-8.png)_30]`,
    `before:content-[url(http://${evil}/tw-9.png)]`,
  ];
}

/** Custom CSS rules, `.c1` … `.c16`, each loading from `evil` in another spelling. */
function customCss(evil: string): string {
  return [
    `@import url(http://${evil}/c-0.css);`,
    `@import "//${evil}/c-00.css";`,
    `@font-face { font-family: evil; src: url(http://${evil}/c-9.woff2) format("woff2") }`,
    `.c1 { background: url("/\\9 /${evil}/c-1.png") }`,
    `.c2 { background: url("\\1 //${evil}/c-2.png") }`,
    `.c3 { background: url("ht\\9 tp://${evil}/c-3.png") }`,
    `.c4 { background: url("/\\A /${evil}/c-4.png") }`,
    `.c5 { background: image-set("http://${evil}/c-5.png" 1x) }`,
    `.c6 { mask-image: url(http://${evil}/c-6.svg) }`,
    `.c7 { background: -webkit-image-set("//${evil}/c-7.png" 1x) }`,
    `.c8 { background: URL("http://${evil}/c-8.png") }`,
    `.c9 { font-family: evil }`,
    `.c10 { cursor: url(http://${evil}/c-10.cur), auto }`,
    `.c11 { display: list-item; list-style-image: url(//${evil}/c-11.png) }`,
    `.c12 { border: 10px solid; border-image: url(http://${evil}/c-12.png) 30 }`,
    `.c13::before { content: url(http://${evil}/c-13.png) }`,
    `.c14 { background: u\\72l(http://${evil}/c-14.png) }`,
    `.c15 { background: url("/\\\\${evil}/c-15.png") }`,
    `.c16 { background: url( "//${evil}/c-16.png" /* a comment */ ) }`,
    '.box { display: block; width: 20px; height: 20px; margin: 2px }',
  ].join('\n');
}

interface Visit {
  /** Every http(s) request the page made, with how it ended: `response`, or the browser's error (`csp` when the policy stopped it before the network). */
  requests: string[];
  violations: string[];
  csp: string | undefined;
}

/** Loads `url` in a fresh context, hovering every box (cursors load on hover); what it requested, the CSP violations it reported, and the policy it was served with. */
async function visit(browser: Browser, url: string): Promise<Visit> {
  const context = await browser.newContext();
  const p = await context.newPage();
  const requests: string[] = [];
  const violations: string[] = [];
  p.on('requestfinished', (r) => { if (/^https?:/.test(r.url())) requests.push(`${r.url()} response`); });
  p.on('requestfailed', (r) => { if (/^https?:/.test(r.url())) requests.push(`${r.url()} ${r.failure()?.errorText}`); });
  await p.exposeFunction('reportViolation', (line: string) => { violations.push(line); });
  await p.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { reportViolation(l: string): void }).reportViolation(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  const res = await p.goto(url, { waitUntil: 'load' });
  // Forced: a masked box does not take the pointer, yet the move over it is what loads a cursor.
  for (const box of await p.locator('.box').all()) if (await box.isVisible()) await box.hover({ force: true });
  await p.waitForLoadState('networkidle');
  await context.close();
  return { requests, violations, csp: res?.headers()['content-security-policy'] };
}

/** Tailwind's own output for `classes`, as the builder made it before it sanitised the sheet. */
async function rawTailwind(classes: string[]): Promise<string> {
  const { compile } = await import('tailwindcss');
  const dir = createRequire(import.meta.url).resolve('tailwindcss/package.json').replace(/package\.json$/, '');
  const input = '@import "tailwindcss/theme.css";\n@import "tailwindcss/utilities.css" important;\n';
  const compiler = await compile(input, { base: dir, loadStylesheet: async (id, base) => ({ path: id, base, content: fs.readFileSync(id.replace(/^tailwindcss\//, dir), 'utf8') }) });
  return compiler.build(classes);
}

/** Serves `html` with no policy on 127.0.0.1 until the test ends. */
async function serveUnprotected(t: Test, html: string): Promise<string> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((r) => server.close(r)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

async function deploy(t: Test, tp: TestPlatform, slug: string, files: Record<string, string>, key?: string): Promise<void> {
  const project = (await tp.api('POST', '/projects', { name: slug, slug }, key)).body;
  const wc = await tp.workingCopy(slug, files, key);
  const sha = await wc.push();
  const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha, undefined, key);
  t.equal(d.status, 'deployed', d.error ?? '');
}

t.test('remote loads from a site\'s CSS and markup', async (t) => {
  const evilHits: string[] = [];
  const evilServer = http.createServer((req, res) => { evilHits.push(req.url ?? ''); res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end(); });
  await new Promise<void>((resolve) => evilServer.listen(0, '127.0.0.1', resolve));
  const evil = `127.0.0.1:${(evilServer.address() as AddressInfo).port}`;
  const tp = await startTestPlatform();
  const browser = await launchBrowser();
  t.teardown(async () => { await browser.close(); await tp.close(); await new Promise((r) => evilServer.close(r)); });
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);
  const siteOrigin = (slug: string) => `http://${slug}.localhost:${tp.p.site.port}`;
  const offSite = (seen: Visit, slug: string) => seen.requests.filter((line) => new URL(line.split(' ')[0]).origin !== siteOrigin(slug));
  const inline = `<div className="box block w-8 h-8" style={{ backgroundImage: 'url(http://${evil}/inline.png)' }} />`;

  const listItem = `[list-style-image:url(http://${evil}/tw-10.png)]`;
  const tailwindBoxes = tailwindPayloads(evil).map((c) => `<div className="box block w-8 h-8 ${c}" />`).join('\n') + `\n\n<ul><li className="box ${listItem}">item</li></ul>`;
  const customBoxes = Array.from({ length: 16 }, (_, i) => `<div className="box c${i + 1}">c${i + 1}</div>`).join('\n');

  // Without this control the test could pass because a payload was never one a browser loads.
  t.test('should use payloads Chromium fetches from the other origin when nothing stops them', async (t) => {
    const tailwind = await rawTailwind([...tailwindPayloads(evil), listItem, 'block', 'w-8', 'h-8']);
    const config = `<div class="box" style="--bg: linear-gradient(red, red), url(http://${evil}/cfg-1.png); background: var(--bg)"></div>`;
    const html = `<!doctype html><style>${customCss(evil)}</style><style>${tailwind}</style>\n${tailwindBoxes.replaceAll('className', 'class')}\n${customBoxes.replaceAll('className', 'class')}\n${config}`;
    const seen = await visit(browser, await serveUnprotected(t, html));
    t.equal(seen.csp, undefined);
    const fetched = [...new Set(evilHits)].sort();
    t.same(fetched, [
      '/c-0.css', '/c-00.css', '/c-1.png', '/c-10.cur', '/c-11.png', '/c-12.png', '/c-13.png', '/c-14.png', '/c-15.png', '/c-16.png',
      '/c-2.png', '/c-3.png', '/c-4.png', '/c-5.png', '/c-6.svg', '/c-7.png', '/c-8.png', '/c-9.woff2', '/cfg-1.png',
      '/tw-1.png', '/tw-10.png', '/tw-2.png', '/tw-3.svg', '/tw-4.svg', '/tw-5.cur', '/tw-6.png', '/tw-7.png', '/tw-8.png', '/tw-9.png',
    ], 'every payload reached the other origin');
    evilHits.length = 0;
  });

  t.test('should load nothing from elsewhere through Tailwind arbitrary values on the free plan', async (t) => {
    const free = await tp.newOrg(`free-remote-${process.pid}`);
    await tp.p.cp.m.Organization.updateOne({ _id: free.orgId }, { $set: { plan: 'free' } });
    await deploy(t, tp, 'free-remote', {
      // A gradient background and a CTA colour are placed in the page's CSS as custom properties.
      'docs.json': JSON.stringify({
        name: 'Free remote',
        background: { light: `linear-gradient(red, red), url(http://${evil}/cfg-1.png)` },
        navbar: { primaryCta: { label: 'Go', href: '/', color: `url(http://${evil}/cfg-2.png)` } },
      }),
      'docs/index.mdx': page('Home', `${tailwindBoxes}\n\n${inline}`),
    }, free.key);
    const seen = await visit(browser, `${siteOrigin('free-remote')}/`);
    t.match(seen.csp, /^img-src 'self' data: blob: http:\/\/free-remote\.localhost:\d+; font-src /, 'served with the site\'s policy');
    t.same(offSite(seen, 'free-remote'), [`http://${evil}/inline.png csp`], 'no request left the site\'s origin: the one that tried was stopped by the policy');
    t.same(seen.violations, [`img-src http://${evil}/inline.png`], 'only the inline style tried, and the policy stopped it');
    t.same(evilHits, [], 'the other origin saw nothing');
  });

  t.test('should load nothing from elsewhere through custom CSS in any spelling on pro', async (t) => {
    await deploy(t, tp, 'pro-remote', {
      'docs.json': JSON.stringify({ name: 'Pro remote' }),
      'docs/index.mdx': page('Home', `${customBoxes}\n\n${inline}`),
      'style.css': customCss(evil),
    });
    const seen = await visit(browser, `${siteOrigin('pro-remote')}/`);
    t.ok(seen.requests.some((u) => /\/_folio\/custom-[0-9a-f]{12}\.css response$/.test(u)), 'the custom stylesheet was loaded');
    t.match(seen.csp, /^img-src 'self' data: blob: http:\/\/pro-remote\.localhost:\d+; font-src /);
    t.same(offSite(seen, 'pro-remote'), [`http://${evil}/inline.png csp`], 'no request left the site\'s origin: the one that tried was stopped by the policy');
    t.same(seen.violations, [`img-src http://${evil}/inline.png`], 'only the inline style tried, and the policy stopped it');
    t.same(evilHits, [], 'the other origin saw nothing');
  });
});
