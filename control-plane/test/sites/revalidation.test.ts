import t from 'tap';
import { ifNoneMatch } from '../../src/sites/if-none-match.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const REVALIDATE = 'public, max-age=0, must-revalidate';
const IMMUTABLE = 'public, max-age=31536000, immutable';

const site = (n: number) => ({
  'docs.json': JSON.stringify({ name: 'Fresh', redirects: [{ source: '/old', destination: '/guide' }] }),
  'docs/index.mdx': `---\ntitle: Home\n---\n\nHome version ${n}.\n`,
  'docs/guide.mdx': `---\ntitle: Guide\nrss: true\n---\n\nGuide version ${n}.\n`,
});

t.test('ifNoneMatch', async (t) => {
  t.test('should match a listed tag, weakly, or any tag for *', async (t) => {
    const etag = '"abc"';
    t.same(
      [undefined, '"abc"', 'W/"abc"', '"x", "abc"', '"x",W/"abc"', '*', ' * ', '"abcd"', 'abc', '"x"', ''].map((h) => ifNoneMatch(h, etag)),
      [false, true, true, true, true, true, true, false, false, false, false],
    );
  });
});

t.test('revalidation of a published site', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const project = (await tp.api('POST', '/projects', { name: 'Fresh', slug: 'fresh-site' })).body;
  const wc = await tp.workingCopy('fresh-site', site(1));
  const worker = tp.startWorker();
  const deploy = async () => {
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha && x.status !== 'queued');
    t.equal(d.status, 'deployed', d.error ?? '');
  };
  await deploy();
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => tp.site('fresh-site', path, headers, { method });
  const v1 = { page: await get('/guide'), md: await get('/guide.md'), llms: await get('/llms-full.txt') };

  t.test('should send every file at a stable URL with max-age=0, must-revalidate and a strong ETag', async (t) => {
    const keys = await tp.p.store.list(`sites/${project.id}/`);
    const paths = ['/', '/guide', '/guide.md', '/llms.txt', '/llms-full.txt', '/sitemap.xml', '/robots.txt', '/rss.xml', '/_redirects.json', '/_headers.json'];
    const entry = keys.find((k) => k.endsWith('/pagefind-entry.json'));
    t.ok(entry, 'the search bundle was published');
    paths.push(entry!.slice(`sites/${project.id}`.length));
    for (const path of paths) {
      const res = await get(path);
      t.same([path, res.status, res.headers.get('cache-control'), /^"[^"]+"$/.test(res.headers.get('etag') ?? '')], [path, 200, REVALIDATE, true]);
    }
    const moved = await get('/old');
    t.same([moved.status, moved.headers.get('location'), moved.headers.get('cache-control')], [307, '/guide', REVALIDATE], 'a redirect is asked again too');
    const missing = await get('/no-such-page');
    t.same([missing.status, missing.headers.get('cache-control')], [404, REVALIDATE], 'the 404 page revalidates too');
    t.equal((await get('/no-such-page', { 'if-none-match': missing.headers.get('etag') ?? '"x"' })).status, 404, 'a 404 is never answered 304');
  });

  t.test('should keep content-hashed assets immutable for a year', async (t) => {
    const asset = /(\/_folio\/[^"?#]+\.(?:css|js))"/.exec(v1.page.body)?.[1];
    t.ok(asset, 'the page links a hashed bundle');
    const res = await get(asset!);
    t.same([res.status, res.headers.get('cache-control')], [200, IMMUTABLE]);
    const keys = await tp.p.store.list(`sites/${project.id}/_pagefind/`);
    const fragment = keys.find((k) => k.endsWith('.pf_fragment'));
    t.ok(fragment, 'the search bundle has fragments');
    const frag = await get(fragment!.slice(`sites/${project.id}`.length));
    t.same([frag.status, frag.headers.get('cache-control')], [200, IMMUTABLE]);
  });

  t.test('should answer 304 to the current ETag, GET and HEAD, with the caching headers', async (t) => {
    const etag = v1.page.headers.get('etag')!;
    for (const method of ['GET', 'HEAD']) {
      const res = await get('/guide', { 'if-none-match': etag }, method);
      t.same([method, res.status, res.body, res.headers.get('etag'), res.headers.get('cache-control')], [method, 304, '', etag, REVALIDATE]);
      const weak = await get('/guide', { 'if-none-match': `"other", W/${etag}` }, method);
      t.equal(weak.status, 304, 'a weakened or listed tag matches');
    }
    t.equal(v1.page.headers.get('vary'), 'Accept', 'the HTML names the header that picks the export');
    const md = await get('/guide', { accept: 'text/markdown', 'if-none-match': etag });
    t.same([md.status, md.headers.get('etag'), md.headers.get('vary')], [200, v1.md.headers.get('etag'), 'Accept'], "the page's ETag does not validate its export");
    const head = await get('/guide', {}, 'HEAD');
    t.same([head.status, head.body, head.headers.get('etag'), head.headers.get('content-length')], [200, '', etag, String(Buffer.byteLength(v1.page.body))]);
  });

  t.test('should serve a deploy on the next conditional request', async (t) => {
    await wc.write(site(2));
    await deploy();
    for (const [path, before, text] of [['/guide', v1.page, 'Guide version 2.'], ['/guide.md', v1.md, 'Guide version 2.'], ['/llms-full.txt', v1.llms, 'Guide version 2.']] as const) {
      const fresh = await get(path, { 'if-none-match': before.headers.get('etag')! });
      t.equal(fresh.status, 200, `${path}: v1's ETag gets the new file`);
      t.not(fresh.headers.get('etag'), before.headers.get('etag'));
      t.ok(fresh.body.includes(text) && !fresh.body.includes('Guide version 1.'), `${path}: v2's bytes`);
      t.equal(fresh.headers.get('cache-control'), REVALIDATE);
      const again = await get(path, { 'if-none-match': fresh.headers.get('etag')! });
      t.same([again.status, again.body], [304, ''], `${path}: v2's ETag gets 304`);
    }
  });

  t.teardown(() => worker.kill('SIGTERM'));
});
