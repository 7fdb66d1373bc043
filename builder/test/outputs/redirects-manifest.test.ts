import t from 'tap';
import { redirectsManifest } from '../../src/outputs/redirects-manifest.ts';
import { site } from './sample-site.ts';

t.test('redirectsManifest', async (t) => {
  t.test('should map permanent to 308 and others to 307, resolving paths against the base', async (t) => {
    t.equal(
      redirectsManifest(site),
      '[\n'
        + '  {\n    "source": "/docs/old",\n    "destination": "/docs/guides/install",\n    "status": 308\n  },\n'
        + '  {\n    "source": "/docs/blog",\n    "destination": "https://acme.dev/blog",\n    "status": 307\n  }\n'
        + ']\n',
    );
  });

  t.test('should send / to the first page of a site without a home page, unless a rule already does', async (t) => {
    t.same(JSON.parse(redirectsManifest({ basePath: '' }, {}, '/docs/2025/intro')), [{ source: '/', destination: '/docs/2025/intro', status: 307 }]);
    t.same(JSON.parse(redirectsManifest({ basePath: '/docs' }, {}, '/v2/intro')), [{ source: '/docs', destination: '/docs/v2/intro', status: 307 }]);
    t.same(JSON.parse(redirectsManifest({ basePath: '', redirects: [{ source: '/', destination: '/start', permanent: true }] }, {}, '/intro')), [{ source: '/', destination: '/start', status: 308 }]);
    t.equal(redirectsManifest({ basePath: '' }, {}, undefined), '[]\n');
  });

  t.test('should be an empty list without redirects', async (t) => {
    t.equal(redirectsManifest({ basePath: '' }), '[]\n');
  });
});
