import t from 'tap';
import { DEFAULT_CONTENT_SECURITY_POLICY } from '@folio/site-template/node/content-security-policy.ts';
import { parseConfig } from '../../src/config/parse-config.ts';
import { declaredOrigins, DEFAULT_SITE_HEADERS, readSiteHeaders, siteHeaders } from '../../src/outputs/site-headers.ts';

const location = { siteUrl: 'https://docs.acme.example', basePath: '' };
const bytes = (text: string) => new TextEncoder().encode(text);

t.test('site headers', async (t) => {
  t.test('should declare the site URL, absolute logo and favicon hosts and remoteOrigins', async (t) => {
    const config = parseConfig(JSON.stringify({
      name: 'Acme',
      colors: { logo: { light: 'https://cdn.acme.example/logo.svg', dark: '/logo-dark.svg' } },
      seo: { favicon: 'https://static.acme.example/favicon.ico', ogImage: 'https://og.acme.example/og.png' },
      remoteOrigins: ['https://www.youtube-nocookie.com/', 'https://images.acme.example'],
    }), location);
    t.same(config.remoteOrigins, ['https://www.youtube-nocookie.com', 'https://images.acme.example']);
    t.same(declaredOrigins(config), ['https://docs.acme.example', 'https://cdn.acme.example/logo.svg', '/logo-dark.svg', 'https://static.acme.example/favicon.ico', 'https://www.youtube-nocookie.com', 'https://images.acme.example']);
    const sources = 'https://cdn.acme.example https://docs.acme.example https://images.acme.example https://static.acme.example https://www.youtube-nocookie.com';
    t.equal(siteHeaders(config), `${JSON.stringify({
      'Content-Security-Policy': `img-src 'self' data: blob: ${sources}; font-src 'self' data: ${sources}; media-src 'self' data: blob: ${sources}; `
        + `style-src 'self' 'unsafe-inline' ${sources}; frame-src 'self' ${sources}; object-src 'none'; base-uri 'self'`,
    }, null, 2)}\n`, 'ogImage is not loaded by browsers: not declared');
  });

  t.test('should reject a remoteOrigins entry that is not an origin', async (t) => {
    t.throws(() => parseConfig(JSON.stringify({ name: 'Acme', remoteOrigins: ['https://cdn.example.com/images', 'cdn.example.com'] }), location), {
      message: 'docs.json: remoteOrigins[0]: Unexpected "https://cdn.example.com/images"; expected an origin such as https://cdn.example.com (scheme and host, no path)\n'
        + 'docs.json: remoteOrigins[1]: Unexpected "cdn.example.com"; expected an origin such as https://cdn.example.com (scheme and host, no path)',
    });
  });

  t.test('should read back only known headers with clean values, else the default policy', async (t) => {
    t.same(DEFAULT_SITE_HEADERS, { 'Content-Security-Policy': DEFAULT_CONTENT_SECURITY_POLICY });
    t.same(readSiteHeaders(undefined), DEFAULT_SITE_HEADERS, 'no file: built before it existed');
    t.same(readSiteHeaders(bytes('{ not json')), DEFAULT_SITE_HEADERS);
    t.same(readSiteHeaders(bytes('["img-src *"]')), DEFAULT_SITE_HEADERS);
    t.same(readSiteHeaders(bytes(JSON.stringify({ 'Content-Security-Policy': "img-src 'self' https://cdn.example.com" }))), { 'Content-Security-Policy': "img-src 'self' https://cdn.example.com" });
    t.same(readSiteHeaders(bytes(JSON.stringify({ 'Content-Security-Policy': "img-src *\r\nSet-Cookie: a=b", 'Set-Cookie': 'a=b', 'Access-Control-Allow-Origin': '*' }))), DEFAULT_SITE_HEADERS, 'no other header, no line break');
  });
});
