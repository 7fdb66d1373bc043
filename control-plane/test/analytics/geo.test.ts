import t from 'tap';
import { geoFromHeaders, geoOf } from '../../src/analytics/geo.ts';

t.test('geo', async (t) => {
  t.test('should read CloudFront, Cloudflare and Vercel geo headers', async (t) => {
    t.same(geoFromHeaders({ 'cloudfront-viewer-country': 'DE', 'cloudfront-viewer-country-region': 'BE', 'cloudfront-viewer-city': 'Berlin' }),
      { country: 'DE', region: 'BE', city: 'Berlin' });
    t.same(geoFromHeaders({ 'cf-ipcountry': 'jp', 'cf-region-code': '13', 'cf-ipcity': 'Tokyo' }), { country: 'JP', region: '13', city: 'Tokyo' });
    t.same(geoFromHeaders({ 'x-vercel-ip-country': 'US', 'x-vercel-ip-country-region': 'CA', 'x-vercel-ip-city': 'San%20Francisco' }),
      { country: 'US', region: 'CA', city: 'San Francisco' });
    t.same(geoFromHeaders({ 'cf-ipcountry': 'FR' }), { country: 'FR', region: null, city: null });
  });

  t.test('should treat CDN placeholders and junk as no header', async (t) => {
    t.same([geoFromHeaders({ 'cf-ipcountry': 'XX' }), geoFromHeaders({ 'cf-ipcountry': 'T1' }), geoFromHeaders({ 'cf-ipcountry': 'Germany' }), geoFromHeaders({})],
      [undefined, undefined, undefined, undefined]);
  });

  t.test('should fall back to the bundled IP database, then to unknown', async (t) => {
    t.same(geoOf({}, '81.2.69.142'), { country: 'GB', region: 'ENG', city: 'Newmarket' });
    t.same(geoOf({ 'cf-ipcountry': 'NZ' }, '81.2.69.142'), { country: 'NZ', region: null, city: null }, 'the CDN header wins');
    t.same([geoOf({}, '127.0.0.1'), geoOf({}, '10.1.2.3'), geoOf({}, 'nonsense'), geoOf({}, null)], Array(4).fill({ country: null, region: null, city: null }));
  });
});
