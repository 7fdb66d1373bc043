import t from 'tap';
import { contentSecurityPolicy, cspOrigin, DEFAULT_CONTENT_SECURITY_POLICY } from '../../src/node/content-security-policy.ts';

t.test('content security policy', async (t) => {
  t.test('should allow only the site itself by default', async (t) => {
    t.equal(DEFAULT_CONTENT_SECURITY_POLICY, "img-src 'self' data: blob:; font-src 'self' data:; media-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-src 'self'; object-src 'none'; base-uri 'self'");
    t.equal(contentSecurityPolicy([]), DEFAULT_CONTENT_SECURITY_POLICY);
  });

  t.test('should add declared origins to every loading directive, once each, sorted', async (t) => {
    t.equal(
      contentSecurityPolicy(['https://www.youtube-nocookie.com', 'https://cdn.example.com/logo.svg?v=2', 'https://cdn.example.com', '/logo.svg']),
      "img-src 'self' data: blob: https://cdn.example.com https://www.youtube-nocookie.com; font-src 'self' data: https://cdn.example.com https://www.youtube-nocookie.com; "
        + "media-src 'self' data: blob: https://cdn.example.com https://www.youtube-nocookie.com; style-src 'self' 'unsafe-inline' https://cdn.example.com https://www.youtube-nocookie.com; "
        + "frame-src 'self' https://cdn.example.com https://www.youtube-nocookie.com; object-src 'none'; base-uri 'self'",
    );
  });

  t.test('should read only absolute http(s) URLs as origins', async (t) => {
    t.same(
      ['https://CDN.example.com:8443/a', 'http://127.0.0.1:4100', '/logo.svg', 'data:image/png,x', 'javascript:alert(1)', "https://a.example/'; script-src *", 'https://u:p@a.example/', 'ftp://a.example', 'https://'].map(cspOrigin),
      ['https://cdn.example.com:8443', 'http://127.0.0.1:4100', undefined, undefined, undefined, 'https://a.example', undefined, undefined, undefined],
    );
  });
});
