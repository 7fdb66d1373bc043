/**
 * A small, deterministic fuzz of the HTTP edge: a few hundred requests built from methods ×
 * paths × bodies × content types × encodings, sent to the real platform on 127.0.0.1. No request
 * may get a 5xx, and every error must carry the `{ error, message }` body.
 */
import zlib from 'node:zlib';
import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';
import { basicAuth, rawRequest } from '../helpers/raw-http.ts';

const CASES = 400;
const PARALLEL = 4;
const UUID = '00000000-0000-4000-8000-000000000000';

/** mulberry32: the same cases on every run, so a failure can be replayed. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'TRACE', 'MKCOL', 'PURGE', 'FOO'];
const CONTENT_TYPES = [
  '', 'application/json', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'multipart/form-data; boundary=x',
  'multipart/form-data', 'text/plain', 'application/x-www-form-urlencoded', 'application/x-git-upload-pack-request', 'garbage/;;;',
];
const ENCODINGS = ['', '', 'gzip', 'gzip-garbage', 'deflate-garbage', 'br-garbage', 'foo'];

function bodies(random: () => number): Buffer[] {
  const garbage = Buffer.from(Array.from({ length: 1 + Math.floor(random() * 2000) }, () => Math.floor(random() * 256)));
  const depth = 5_000 + Math.floor(random() * 5_000);
  return [
    Buffer.alloc(0), Buffer.from('{}'), Buffer.from('{"name":"Fuzz","slug":"fuzz-x"}'), Buffer.from('['.repeat(depth) + ']'.repeat(depth)),
    Buffer.from('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)), Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]),
    garbage, Buffer.from('--x\r\ngarbage'), Buffer.from('--x\r\nContent-Disposition: form-data; name="light"; filename="a.svg"\r\n\r\n<svg'),
    Buffer.from('--x\r\nContent-Disposition: form-data; filename="a.svg"\r\n\r\n<svg/>\r\n--x--\r\n'),
    Buffer.from(`--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nX-Pad: ${'a'.repeat(50_000)}\r\n\r\nPNG\r\n--x--\r\n`),
    Buffer.from('a=1&b[$gt]=2&payload=%7B'), Buffer.from('{"query":"x"}', 'utf16le'), Buffer.from('{"$where":"1","__proto__":{"x":1}}'),
    Buffer.from('null'), Buffer.from('"str"'), Buffer.from('1e999999'), Buffer.from('{"query":"a","limit":1e308}'),
  ];
}

function encode(encoding: string, body: Buffer): { header?: string; bytes: Buffer } {
  switch (encoding) {
    case 'gzip': return { header: 'gzip', bytes: zlib.gzipSync(body) };
    case 'gzip-garbage': return { header: 'gzip', bytes: body };
    case 'deflate-garbage': return { header: 'deflate', bytes: body };
    case 'br-garbage': return { header: 'br', bytes: body };
    case 'foo': return { header: 'foo', bytes: body };
    default: return { bytes: body };
  }
}

t.test('HTTP fuzz', async (t) => {
  const tp = await startTestPlatform({ GITHUB_WEBHOOK_SECRET: 'fuzz-secret' });
  t.teardown(() => tp.close());
  const port = tp.p.cp.port;
  const project = (await tp.api('POST', '/projects', { name: 'Fuzz', slug: 'fuzz' })).body;
  const paths = [
    '/v1/projects', `/v1/projects/${project.id}`, `/v1/projects/${project.id}/deployments`, `/v1/projects/${project.id}/deployments/${UUID}`,
    `/v1/projects/${project.id}/pages`, `/v1/projects/${project.id}/pages/search`, `/v1/projects/${project.id}/logo`, `/v1/projects/${project.id}/asset`,
    '/v1/me/entitlements', '/v1/webhooks/github', '/v1/scim/v2/Users', '/v1/openapi.json', '/v1/projects/%E0%A4%A', '/v1/nope', '/nope', '/',
    '/internal/v1/jobs/claim', `/internal/v1/jobs/${UUID}/heartbeat`, `/internal/v1/jobs/${UUID}/complete`, '/internal/v1/ci/deployments',
    `/internal/v1/jobs/${UUID}/objects/a.txt`, '/internal/v1/jobs/%E0%A4%A/objects', '/internal/nope',
    '/git/fuzz.git/info/refs?service=git-upload-pack', '/git/fuzz.git/git-upload-pack', '/git/fuzz.git/git-receive-pack', '/git/fuzz.git/../x', '/git/nope.git/info/refs',
  ];
  const authFor = (path: string, random: () => number): Record<string, string> => {
    if (random() < 0.15) return {};
    if (path.startsWith('/git/')) return { authorization: basicAuth(tp.key) };
    if (path === '/internal/v1/jobs/claim') return { authorization: 'Bearer test-worker-secret' };
    if (path.includes('/objects')) return { authorization: 'Bearer bt_fuzz', 'x-folio-fencing': '1' };
    return { authorization: `Bearer ${tp.key}` };
  };

  t.test('should answer every generated request without a 5xx and with the error shape', async (t) => {
    const random = prng(20261124);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const requests = Array.from({ length: CASES }, () => {
      const path = pick(paths);
      const contentType = pick(CONTENT_TYPES);
      const { header, bytes } = encode(pick(ENCODINGS), pick(bodies(random)));
      const headers: Record<string, string> = { ...authFor(path, random), ...(contentType ? { 'content-type': contentType } : {}), ...(header ? { 'content-encoding': header } : {}) };
      return { method: pick(METHODS), path, headers, body: bytes };
    });
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const r = requests[next++];
        const res = await rawRequest(port, r.method, r.path, r.headers, r.body).catch((err: Error) => err);
        if (res instanceof Error) { problems.push(`client error ${res.message}: ${r.method} ${r.path} ${JSON.stringify(r.headers)} ${r.body.length} bytes`); continue; }
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const label = `${r.method} ${r.path} ${JSON.stringify(r.headers)} ${r.body.length} bytes → ${res.status} ${res.text.slice(0, 120)}`;
        if (res.status >= 500) problems.push(`5xx: ${label}`);
        else if (res.status >= 400 && r.method !== 'HEAD' && (typeof res.body?.error !== 'string' || typeof res.body?.message !== 'string')) problems.push(`shape: ${label}`);
        else if (res.status === 405 && !res.headers.allow) problems.push(`no Allow: ${label}`);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    t.same(problems, [], `statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    t.ok([...statuses.keys()].some((s) => s >= 400), 'the cases reach error paths');
    t.equal((await rawRequest(port, 'GET', '/v1/openapi.json')).status, 200, 'the server still answers');
  });
});
