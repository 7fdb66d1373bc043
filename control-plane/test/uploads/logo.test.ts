import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { UPLOAD_LIMIT_BYTES } from '../../src/http/app.ts';
import { startTestApi } from '../helpers/api.ts';
import { form, ICO, JPEG, localServer, PNG, SVG, tempSiteStore, WEBP } from './upload-fixtures.ts';

const h12 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex').slice(0, 12);

t.test('logo API', async (t) => {
  const sites = tempSiteStore();
  const images = await localServer((req, res) => {
    if (req.url === '/logo.png') { res.writeHead(200, { 'content-type': 'image/png' }); res.end(PNG); return; }
    if (req.url === '/logo.svg') { res.writeHead(200, { 'content-type': 'text/plain' }); res.end(SVG); return; }
    if (req.url === '/to-loopback') { res.writeHead(302, { location: 'http://127.0.0.1:9/logo.png' }); res.end(); return; }
    res.writeHead(404); res.end();
  });
  const services = { siteStore: sites.store, fetchAllowHosts: [`127.0.0.1:${images.port}`] };
  const api = await startTestApi({ services });
  t.teardown(async () => { await api.close(); await images.close(); sites.cleanup(); });
  const stored = (projectId: string, urlPath: string) => fs.readFileSync(path.join(sites.root, 'sites', projectId, urlPath));
  const exists = (projectId: string, urlPath: string) => fs.existsSync(path.join(sites.root, 'sites', projectId, urlPath));

  t.test('should store a light SVG for both modes and save it on the project', async (t) => {
    const { key } = await api.tenant();
    const p = await api.project(key);
    const res = await api.request('PUT', `/projects/${p.id}/logo`, { key, raw: form({ light: { bytes: SVG, filename: 'logo.svg', type: 'image/svg+xml' } }) });
    const url = `/_folio/logo/light-${h12(SVG)}.svg`;
    t.same([res.status, res.body], [200, { logo: { light: url, dark: url } }]);
    t.equal(stored(p.id, url).toString(), SVG);
    t.same((await api.cp.m.Project.findById(p.id).lean())!.logo, { light: url, dark: url });
  });

  t.test('should store light and dark raster files under extensions taken from their bytes', async (t) => {
    const { key } = await api.tenant();
    const p = await api.project(key);
    for (const [bytes, ext] of [[PNG, 'png'], [JPEG, 'jpg'], [WEBP, 'webp']] as const) {
      const res = await api.request('PUT', `/projects/${p.id}/logo`, { key, raw: form({ light: { bytes: SVG }, dark: { bytes, filename: 'dark.gif', type: 'image/gif' } }) });
      const dark = `/_folio/logo/dark-${h12(bytes)}.${ext}`;
      t.same([res.status, res.body], [200, { logo: { light: `/_folio/logo/light-${h12(SVG)}.svg`, dark } }], ext);
      t.same(stored(p.id, dark), bytes, `${ext} stored byte for byte`);
    }
  });

  t.test('should decide the type by content: a PNG named .svg is a PNG, a text file named .png is refused', async (t) => {
    const { key } = await api.tenant();
    const p = await api.project(key);
    const png = await api.request('PUT', `/projects/${p.id}/logo`, { key, raw: form({ light: { bytes: PNG, filename: 'logo.svg', type: 'image/svg+xml' } }) });
    t.same(png.body.logo.light, `/_folio/logo/light-${h12(PNG)}.png`);
    const cases: [string, Buffer | string][] = [
      ['light', 'just some text, not an image'],
      ['dark', '<html><body><svg xmlns="http://www.w3.org/2000/svg"/></body></html>'],
      ['light', ICO],
      ['light', '<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>'],
    ];
    for (const [field, bytes] of cases) {
      const res = await api.request('PUT', `/projects/${p.id}/logo`, { key, raw: form({ [field]: { bytes, filename: 'logo.png', type: 'image/png' } }) });
      t.same([res.status, res.body], [400, { error: 'invalid_request', message: `${field}: Unexpected file type; expected SVG, PNG, JPEG or WebP` }], String(bytes).slice(0, 30));
    }
    t.same((await api.cp.m.Project.findById(p.id).lean())!.logo!.light, `/_folio/logo/light-${h12(PNG)}.png`, 'a refused upload changes nothing');
  });

  t.test('should sanitise a hostile SVG before storing it', async (t) => {
    const { key } = await api.tenant();
    const p = await api.project(key);
    const hostile = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script><rect width="4" height="4"/></svg>';
    const clean = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="4"/></svg>';
    const res = await api.request('PUT', `/projects/${p.id}/logo`, { key, raw: form({ light: { bytes: hostile } }) });
    t.same(res.body, { logo: { light: `/_folio/logo/light-${h12(clean)}.svg`, dark: `/_folio/logo/light-${h12(clean)}.svg` } });
    t.equal(stored(p.id, res.body.logo.light).toString(), clean);
  });

  t.test('should refuse requests carrying no logo, unknown fields and other body types', async (t) => {
    const { key } = await api.tenant();
    const p = await api.project(key);
    const cases: [Parameters<typeof api.request>[2], number, unknown][] = [
      [{ key }, 400, { error: 'invalid_request', message: 'body: Missing logo; expected a light and/or dark file or URL' }],
      [{ key, body: {} }, 400, { error: 'invalid_request', message: 'body: Missing logo; expected a light and/or dark file or URL' }],
      [{ key, raw: form({}, { note: 'x' }) }, 400, { error: 'invalid_request', message: 'note: Unexpected key' }],
      [{ key, raw: form({}, { light: 'https://example.com/a.svg' }) }, 400, { error: 'invalid_request', message: 'light: Unexpected value; expected a file' }],
      [{ key, body: { light: 'x', logo: 'y' } }, 400, { error: 'invalid_request', message: 'logo: Unexpected key' }],
      [{ key, body: { light: 42 } }, 400, { error: 'invalid_request', message: 'light: Unexpected value; expected an http or https URL' }],
      [{ key, raw: '{"light":', headers: { 'content-type': 'application/json' } }, 400, { error: 'invalid_request', message: 'body: Malformed JSON; expected a JSON object' }],
      [{ key, raw: '{"$where":"1"}', headers: { 'content-type': 'application/json' } }, 400, { error: 'invalid_request', message: '$where: Unexpected key; operator and prototype keys are not allowed' }],
      [{ key, raw: SVG, headers: { 'content-type': 'image/svg+xml' } }, 415, { error: 'unsupported_media_type', message: 'Unexpected content type image/svg+xml; expected multipart/form-data or application/json' }],
    ];
    for (const [opts, status, body] of cases) {
      const res = await api.request('PUT', `/projects/${p.id}/logo`, opts);
      t.same([res.status, res.body], [status, body], JSON.stringify(opts!.body ?? opts!.raw ?? null).slice(0, 40));
    }
  });

  t.test('should refuse a file over 2 MB with 413', async (t) => {
    const { key } = await api.tenant();
    const p = await api.project(key);
    const big = Buffer.concat([PNG, Buffer.alloc(UPLOAD_LIMIT_BYTES, 0)]);
    const res = await api.request('PUT', `/projects/${p.id}/logo`, { key, raw: form({ light: { bytes: big } }) });
    t.same([res.status, res.body], [413, { error: 'payload_too_large', message: 'Request body exceeds the 2 MB upload limit' }]);
    const exact = Buffer.concat([PNG, Buffer.alloc(UPLOAD_LIMIT_BYTES - PNG.length, 0)]);
    const ok = await api.request('PUT', `/projects/${p.id}/logo`, { key, raw: form({ light: { bytes: exact } }) });
    t.same([ok.status, ok.body.logo.light], [200, `/_folio/logo/light-${h12(exact)}.png`], 'exactly 2 MB is accepted');
  });

  t.test('should download logos from URLs, refusing private addresses', async (t) => {
    const { key } = await api.tenant();
    const p = await api.project(key);
    const res = await api.request('PUT', `/projects/${p.id}/logo`, { key, body: { light: images.url('/logo.svg'), dark: images.url('/logo.png') } });
    t.same([res.status, res.body], [200, { logo: { light: `/_folio/logo/light-${h12(SVG)}.svg`, dark: `/_folio/logo/dark-${h12(PNG)}.png` } }]);
    t.same(stored(p.id, res.body.logo.dark), PNG);
    const refused: [string, string][] = [
      ['http://10.0.0.7/logo.png', 'light: URL resolves to a private address (10.0.0.7); only public addresses are allowed'],
      [images.url('/to-loopback'), 'light: URL resolves to a private address (127.0.0.1); only public addresses are allowed'],
      [images.url('/missing.png'), 'light: Download failed with HTTP 404; expected 200'],
      ['file:///etc/passwd', 'light: Unexpected URL scheme "file:"; expected http or https'],
    ];
    for (const [url, message] of refused) {
      const r = await api.request('PUT', `/projects/${p.id}/logo`, { key, body: { light: url } });
      t.same([r.status, r.body], [400, { error: 'invalid_request', message }], url);
    }
  });

  t.test('should delete replaced files, and delete the logo with 204', async (t) => {
    const { key } = await api.tenant();
    const p = await api.project(key);
    const first = (await api.request('PUT', `/projects/${p.id}/logo`, { key, raw: form({ light: { bytes: SVG }, dark: { bytes: PNG } }) })).body.logo;
    const second = (await api.request('PUT', `/projects/${p.id}/logo`, { key, raw: form({ dark: { bytes: JPEG } }) })).body.logo;
    t.same(second, { light: first.light, dark: `/_folio/logo/dark-${h12(JPEG)}.jpg` }, 'only dark given: the light logo stays');
    t.same([exists(p.id, first.light), exists(p.id, first.dark), exists(p.id, second.dark)], [true, false, true]);
    const del = await api.request('DELETE', `/projects/${p.id}/logo`, { key });
    t.same([del.status, del.text], [204, '']);
    t.same([exists(p.id, second.light), exists(p.id, second.dark)], [false, false]);
    t.same((await api.cp.m.Project.findById(p.id).lean())!.logo, null);
    t.equal((await api.request('DELETE', `/projects/${p.id}/logo`, { key })).status, 204, 'deleting no logo is not an error');
  });
});
