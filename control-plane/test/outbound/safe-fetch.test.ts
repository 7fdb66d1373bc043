import dns from 'node:dns';
import t from 'tap';
import { AppError } from '../../src/errors.ts';
import { UPLOAD_LIMIT_BYTES } from '../../src/http/app.ts';
import { nonPublicRange, safeFetch, type SafeFetchOptions } from '../../src/outbound/safe-fetch.ts';
import { localServer, PNG } from '../uploads/upload-fixtures.ts';

/** What a download came to: its bytes, or the error body the API would answer. */
async function outcome(url: string, opts: Partial<SafeFetchOptions> = {}) {
  try {
    return { bytes: await safeFetch(url, { field: 'light', ...opts }) };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: err.status, error: err.code, message: err.message };
  }
}
const privateAddress = (ip: string) => ({ status: 400, error: 'invalid_request', message: `light: URL resolves to a private address (${ip}); only public addresses are allowed` });

t.test('safeFetch', async (t) => {
  // A second server that must never be reached: redirects point at it.
  const target = await localServer((_req, res) => { res.end(PNG); });
  const origin = await localServer((req, res) => {
    const hop = /^\/r(\d)$/.exec(req.url ?? '');
    if (req.url === '/logo.png') { res.end(PNG); return; }
    if (hop) { res.writeHead(302, { location: Number(hop[1]) > 1 ? `/r${Number(hop[1]) - 1}` : '/logo.png' }); res.end(); return; }
    if (req.url === '/loop') { res.writeHead(301, { location: '/loop' }); res.end(); return; }
    if (req.url === '/to-target') { res.writeHead(307, { location: target.url('/logo.png') }); res.end(); return; }
    if (req.url === '/to-metadata') { res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }); res.end(); return; }
    if (req.url === '/big') { res.writeHead(200, { 'content-length': String(UPLOAD_LIMIT_BYTES + 1) }); res.end(Buffer.alloc(UPLOAD_LIMIT_BYTES + 1)); return; }
    if (req.url === '/big-chunked') { res.write(Buffer.alloc(UPLOAD_LIMIT_BYTES)); res.end(Buffer.alloc(1)); return; }
    if (req.url === '/exact') { res.end(Buffer.alloc(UPLOAD_LIMIT_BYTES, 7)); return; }
    if (req.url === '/slow') return; // never answers
    res.writeHead(500); res.end();
  });
  t.teardown(async () => { await origin.close(); await target.close(); });
  const allowed = { allowHosts: [`127.0.0.1:${origin.port}`] };

  t.test('should refuse loopback, private, link-local and other non-public addresses, however they are written', async (t) => {
    const cases: [string, string][] = [
      ['http://127.0.0.1/logo.png', '127.0.0.1'],
      ['http://10.0.0.7/logo.png', '10.0.0.7'],
      ['http://172.16.5.4/', '172.16.5.4'],
      ['http://192.168.1.1/', '192.168.1.1'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
      ['http://100.64.0.1/', '100.64.0.1'],
      ['http://0.0.0.0/', '0.0.0.0'],
      ['http://224.0.0.1/', '224.0.0.1'],
      ['http://240.0.0.1/', '240.0.0.1'],
      ['http://0x7f.1/', '127.0.0.1'],
      ['http://2130706433/', '127.0.0.1'],
      ['http://017700000001/', '127.0.0.1'],
      ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
      ['http://[::ffff:a9fe:a9fe]/', '::ffff:a9fe:a9fe'],
      ['http://[::1]/', '::1'],
      ['http://[fd12:3456::1]/', 'fd12:3456::1'],
      ['http://[fe80::1]/', 'fe80::1'],
      ['http://[64:ff9b::7f00:1]/', '64:ff9b::7f00:1'],
      ['https://[2002:7f00:1::]/', '2002:7f00:1::'],
    ];
    for (const [url, ip] of cases) t.same(await outcome(url), privateAddress(ip), url);
    const [first] = await dns.promises.lookup('localhost', { all: true, verbatim: true });
    t.same(await outcome(`http://localhost:${origin.port}/logo.png`), privateAddress(first.address), 'a name resolving to loopback');
    t.same(origin.requests, [], 'no request was made');
  });

  t.test('should classify public unicast addresses as public', async (t) => {
    t.same(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'].map(nonPublicRange), [undefined, undefined, undefined, undefined]);
    t.same(['127.0.0.1', '10.1.1.1', '::1', 'not-an-ip'].map(nonPublicRange), ['loopback', 'private', 'loopback', 'invalid']);
  });

  t.test('should download from an allow-listed host and follow up to 3 redirects', async (t) => {
    t.same(await outcome(origin.url('/logo.png'), allowed), { bytes: PNG });
    t.same(await outcome(origin.url('/r3'), allowed), { bytes: PNG }, 'three redirects');
    t.same(await outcome(origin.url('/exact'), allowed), { bytes: Buffer.alloc(UPLOAD_LIMIT_BYTES, 7) }, 'exactly 2 MB');
  });

  t.test('should re-check every redirect hop: the allow-list covers the first hop only', async (t) => {
    t.same(await outcome(origin.url('/to-target'), allowed), privateAddress('127.0.0.1'));
    t.same(await outcome(origin.url('/to-metadata'), allowed), privateAddress('169.254.169.254'));
    t.same(target.requests, [], 'the redirect target was never contacted');
  });

  t.test('should stop after 3 redirects', async (t) => {
    const before = origin.requests.length;
    t.same(await outcome(origin.url('/loop'), allowed), { status: 400, error: 'invalid_request', message: 'light: Too many redirects; expected at most 3' });
    t.equal(origin.requests.length - before, 4, 'the first request and 3 redirects');
    t.same(await outcome(origin.url('/r4'), allowed), { status: 400, error: 'invalid_request', message: 'light: Too many redirects; expected at most 3' });
  });

  t.test('should refuse bodies over 2 MB, declared or streamed', async (t) => {
    const tooLarge = { status: 413, error: 'payload_too_large', message: 'light: Downloaded file exceeds the 2 MB limit' };
    t.same(await outcome(origin.url('/big'), allowed), tooLarge);
    t.same(await outcome(origin.url('/big-chunked'), allowed), tooLarge);
  });

  t.test('should give up when the download outlives its time budget', async (t) => {
    t.same(await outcome(origin.url('/slow'), { ...allowed, timeoutMs: 200 }), { status: 400, error: 'invalid_request', message: 'light: Download timed out after 0.2 s' });
  });

  t.test('should refuse other schemes, malformed URLs, credentials, unknown hosts and failed answers', async (t) => {
    const bad = (message: string) => ({ status: 400, error: 'invalid_request', message: `light: ${message}` });
    t.same(await outcome('ftp://example.com/logo.png'), bad('Unexpected URL scheme "ftp:"; expected http or https'));
    t.same(await outcome('javascript:alert(1)'), bad('Unexpected URL scheme "javascript:"; expected http or https'));
    t.same(await outcome('//example.com/logo.png'), bad('Unexpected URL; expected an absolute http or https URL'));
    t.same(await outcome('http://user:pw@example.com/'), bad('Unexpected credentials in URL; expected a public URL without user or password'));
    t.same(await outcome('http://folio-test.invalid/logo.png'), bad('Could not resolve folio-test.invalid; expected a host name with a public address'));
    t.same(await outcome(origin.url('/error'), allowed), bad('Download failed with HTTP 500; expected 200'));
  });
});
