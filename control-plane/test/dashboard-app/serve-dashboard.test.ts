import t from 'tap';
import { DASHBOARD_CSP } from '../../src/dashboard-static/serve-dashboard.ts';
import { startTestApi } from '../helpers/api.ts';

t.test('dashboard static serving', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const origin = new URL(api.url).origin;
  const get = (path: string, init: RequestInit = {}) => fetch(origin + path, init);

  let assets: string[] = [];
  t.test('should answer / with the app page, a CSP and no caching', async (t) => {
    const res = await get('/');
    t.equal(res.status, 200);
    t.match(res.headers.get('content-type'), /^text\/html/);
    t.equal(res.headers.get('cache-control'), 'no-cache');
    t.equal(res.headers.get('content-security-policy'), DASHBOARD_CSP);
    t.equal(res.headers.get('x-content-type-options'), 'nosniff');
    const html = await res.text();
    t.match(html, '<div id="app"></div>');
    assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    t.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), `script and stylesheet linked: ${assets.join(', ')}`);
  });

  t.test('should serve hashed assets with a year-long immutable cache', async (t) => {
    for (const a of assets) {
      const res = await get(a);
      t.equal(res.status, 200, a);
      t.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', a);
      t.match(res.headers.get('content-type'), a.endsWith('.js') ? /^text\/javascript/ : /^text\/css/, a);
      t.ok((await res.arrayBuffer()).byteLength > 100, a);
    }
  });

  t.test('should answer client routes with the app page (SPA fallback)', async (t) => {
    for (const path of ['/sign-in', '/claim', '/accept-invite', '/projects', '/projects/abc/deployments/def', '/settings/api-keys']) {
      const res = await get(path);
      t.equal(res.status, 200, path);
      t.match(await res.text(), '<div id="app"></div>', path);
    }
  });

  t.test('should keep the API error for other paths and unknown assets', async (t) => {
    for (const path of ['/nope', '/assets/missing.js', '/assets/../package.json', '/assets/%2e%2e/%2e%2e/package.json', '/v1/nope']) {
      const res = await get(path);
      t.equal(res.status, 404, path);
      // fetch() normalizes dot segments before sending, as browsers do.
      t.same(await res.json(), { error: 'not_found', message: `No route for GET ${new URL(path, origin).pathname}` }, path);
    }
  });

  t.test('should answer other methods on app paths with 405 and Allow', async (t) => {
    const res = await get('/projects', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    t.equal(res.status, 405);
    t.equal(res.headers.get('allow'), 'GET, HEAD');
    t.same(await res.json(), { error: 'method_not_allowed', message: 'Unexpected method POST for this path; expected one of GET, HEAD' });
  });

  t.test('should leave the /v1 API as it was', async (t) => {
    const res = await get('/v1/projects');
    t.equal(res.status, 401);
    t.equal(res.headers.get('content-security-policy'), null);
  });
});
