import t from 'tap';
import { DEFAULT_CONTENT_SECURITY_POLICY } from '@folio/site-template/node/content-security-policy.ts';
import { SVG_CSP } from '../../src/sites/site-server.ts';
import { startTestPlatform } from '../helpers/platform.ts';

t.test('site server: the headers a build wrote for its pages', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const project = (await tp.api('POST', '/projects', { name: 'Headers', slug: 'headers' })).body;
  const put = (key: string, body: string) => tp.p.store.put(`sites/${project.id}/${key}`, Buffer.from(body));
  await put('index.html', '<!doctype html><title>Home</title>');
  await put('404.html', '<!doctype html><title>Not found</title>');
  await put('_folio/theme.css', 'body{color:red}');
  await put('logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const csp = async (path: string) => {
    const res = await tp.site('headers', path);
    return [res.status, res.headers.get('content-security-policy')];
  };

  t.test('should send the default policy with pages of a site built before _headers.json existed', async (t) => {
    t.same(await csp('/'), [200, DEFAULT_CONTENT_SECURITY_POLICY]);
    t.same(await csp('/missing'), [404, DEFAULT_CONTENT_SECURITY_POLICY], 'the 404 page too');
    t.same(await csp('/_folio/theme.css'), [200, null], 'not with other files');
    t.same(await csp('/logo.svg'), [200, SVG_CSP], 'SVGs keep their own');
  });

  t.test('should send the policy of _headers.json, read again when it changes', async (t) => {
    const policy = "img-src 'self' data: blob: https://cdn.example.com; object-src 'none'";
    await put('_headers.json', JSON.stringify({ 'Content-Security-Policy': policy }));
    t.same(await csp('/'), [200, policy]);
    t.same(await csp('/missing'), [404, policy]);
    await put('_headers.json', JSON.stringify({ 'Content-Security-Policy': "img-src 'self'", 'Set-Cookie': 'a=b' }));
    const res = await tp.site('headers', '/');
    t.same([res.headers.get('content-security-policy'), res.headers.get('set-cookie')], ["img-src 'self'", null], 'only known headers');
  });
});
