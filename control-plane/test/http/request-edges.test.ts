import zlib from 'node:zlib';
import t from 'tap';
import { MAX_JSON_DEPTH, MULTIPART_LIMIT_BYTES } from '../../src/http/limits.ts';
import { DEPTH_RULE } from '../../src/http/validate.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { basicAuth, rawRequest, type RawResponse } from '../helpers/raw-http.ts';

const UUID = '00000000-0000-4000-8000-000000000000';
const DEPTH = { error: 'invalid_request', message: `body: ${DEPTH_RULE}` };
const MALFORMED_MULTIPART = { error: 'invalid_request', message: 'body: Malformed multipart/form-data; expected parts with a Content-Disposition name, separated by the boundary' };
const BAD_ENCODING = { error: 'invalid_request', message: 'body: Unexpected bytes for the Content-Encoding; expected a body compressed with it (gzip, deflate or br)' };
const nest = (n: number, inner = '1') => '['.repeat(n) + inner + ']'.repeat(n);

t.test('request edges', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const port = tp.p.cp.port;
  const project = (await tp.api('POST', '/projects', { name: 'Edges', slug: 'edges' })).body;
  const bearer = { authorization: `Bearer ${tp.key}` };
  const json = { ...bearer, 'content-type': 'application/json' };
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer) => rawRequest(port, method, path, headers, body);
  const answer = (res: RawResponse) => [res.status, res.body];

  t.test('should answer other methods on existing paths with 405 and Allow, on unknown paths with 404', async (t) => {
    const cases: [string, string, Record<string, string>, string][] = [
      ['PROPFIND', '/v1/projects', bearer, 'GET, HEAD, POST'],
      ['TRACE', `/v1/projects/${project.id}`, bearer, 'DELETE, GET, HEAD, PATCH'],
      ['PUT', `/v1/projects/${project.id}/deployments`, bearer, 'GET, HEAD, POST'],
      ['MKCOL', '/internal/v1/jobs/claim', {}, 'POST'],
      ['PROPFIND', `/internal/v1/jobs/${UUID}/heartbeat`, {}, 'POST'],
      ['TRACE', '/git/edges.git/info/refs', {}, 'GET'],
      ['GET', '/git/edges.git/git-upload-pack', {}, 'POST'],
    ];
    for (const [method, path, headers, allow] of cases) {
      const res = await send(method, path, headers);
      t.same([...answer(res), res.headers.allow], [405, { error: 'method_not_allowed', message: `Unexpected method ${method} for this path; expected one of ${allow}` }, allow], `${method} ${path}`);
    }
    t.same(answer(await send('MKCOL', '/nope')), [404, { error: 'not_found', message: 'No route for MKCOL /nope' }]);
    t.same(answer(await send('PROPFIND', '/v1/nope', bearer)), [404, { error: 'not_found', message: 'No route for PROPFIND /v1/nope' }]);
    t.same(answer(await send('PROPFIND', '/git/edges.git/../../etc/passwd')), [404, { error: 'not_found', message: 'No Git service at /../../etc/passwd; expected /info/refs, /git-upload-pack or /git-receive-pack' }]);
    const options = await send('OPTIONS', '/v1/projects');
    t.same([options.status, options.headers.allow, options.text], [200, 'GET, HEAD, OPTIONS, POST', '']);
  });

  t.test('should answer requests the HTTP parser refuses in the error shape', async (t) => {
    t.same(answer(await send('FOO', '/v1/projects', bearer)), [400, { error: 'invalid_request', message: 'Unexpected method; expected one of DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT' }]);
    t.same(answer(await send('GET', '/v1/projects', { ...bearer, 'x-padding': 'a'.repeat(20_000) })), [431, { error: 'request_header_fields_too_large', message: 'headers: Unexpected size; expected at most 16 KB of request headers' }]);
  });

  t.test('should refuse JSON nested deeper than the limit with 400 naming the rule', async (t) => {
    const fine = JSON.stringify({ name: 'x', slug: 'deep-ok' }).replace('}', `,"github_repo":${nest(MAX_JSON_DEPTH - 1)}}`);
    t.same(answer(await send('POST', '/v1/projects', json, fine)), [400, { error: 'invalid_request', message: 'github_repo: Unexpected array; expected string' }], `${MAX_JSON_DEPTH} levels pass the depth check`);
    const over = fine.replace(nest(MAX_JSON_DEPTH - 1), nest(MAX_JSON_DEPTH));
    t.same(answer(await send('POST', '/v1/projects', json, over)), [400, DEPTH], `${MAX_JSON_DEPTH + 1} levels do not`);
    for (const body of [nest(5_000), '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000), nest(500_000, '')]) {
      t.same(answer(await send('POST', '/v1/projects', json, body)), [400, DEPTH], `${body.length} bytes`);
    }
    t.same(answer(await send('POST', `/v1/projects/${project.id}/pages/search`, json, `{"query":${nest(9_000, '"x"')}}`)), [400, DEPTH]);
    t.same(answer(await send('PUT', `/v1/projects/${project.id}/logo`, json, `{"light":${nest(9_000, '"x"')}}`)), [400, DEPTH], 'JSON read by an upload route');
    t.same(answer(await send('POST', '/internal/v1/jobs/claim', { authorization: 'Bearer test-worker-secret', 'content-type': 'application/json' }, nest(9_000))), [400, DEPTH], 'internal API');
    t.same(answer(await send('POST', '/v1/projects', { ...json, 'content-encoding': 'gzip' }, zlib.gzipSync(nest(9_000)))), [400, DEPTH], 'gzipped');
  });

  t.test('should refuse malformed multipart bodies with 400', async (t) => {
    const logo = `/v1/projects/${project.id}/logo`;
    const form = (body: string) => send('PUT', logo, { ...bearer, 'content-type': 'multipart/form-data; boundary=x' }, body);
    const part = (disposition: string, extra = '') => `--x\r\nContent-Disposition: form-data; ${disposition}\r\n${extra}Content-Type: image/svg+xml\r\n\r\n<svg xmlns="http://www.w3.org/2000/svg"/>`;
    t.same(answer(await form('garbage')), [400, MALFORMED_MULTIPART], 'garbage');
    t.same(answer(await form(part('name="light"; filename="a.svg"'))), [400, MALFORMED_MULTIPART], 'truncated part');
    t.same(answer(await form(`${part('filename="a.svg"')}\r\n--x--\r\n`)), [400, { error: 'invalid_request', message: 'body: Unexpected part without a name; expected Content-Disposition: form-data; name="<field>"' }], 'no name');
    t.same(answer(await form(`${part('name="light"; filename="a.svg"', `X-Pad: ${'a'.repeat(MULTIPART_LIMIT_BYTES)}\r\n`)}\r\n--x--\r\n`)), [413, { error: 'payload_too_large', message: `Request body exceeds the ${MULTIPART_LIMIT_BYTES} byte limit` }], 'part headers over the form limit');
    t.same(answer(await send('PUT', logo, { ...bearer, 'content-type': 'multipart/form-data' }, 'garbage')), [400, { error: 'invalid_request', message: 'Content-Type: Missing boundary parameter; expected multipart/form-data; boundary=<boundary>' }]);
    t.same(answer(await send('POST', `/v1/projects/${project.id}/asset`, { ...bearer, 'content-type': 'multipart/form-data; boundary=x' }, 'garbage')), [400, MALFORMED_MULTIPART], 'asset');
  });

  t.test('should refuse bodies in encodings and types the API does not read', async (t) => {
    const body = JSON.stringify({ name: 'x', slug: 'enc' });
    const cases: [Record<string, string>, string | Buffer, number, { error: string; message: string }][] = [
      [{ 'content-encoding': 'gzip' }, 'garbage', 400, BAD_ENCODING],
      [{ 'content-encoding': 'deflate' }, 'garbage', 400, BAD_ENCODING],
      [{ 'content-encoding': 'br' }, 'garbage', 400, BAD_ENCODING],
      [{ 'content-encoding': 'foo' }, body, 415, { error: 'unsupported_media_type', message: 'Content-Encoding: Unexpected "foo"; expected gzip, deflate, br or identity' }],
      [{ 'content-encoding': 'gzip' }, zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024, 32)), 413, { error: 'payload_too_large', message: 'Request body exceeds the 1048576 byte limit' }],
      [{ 'content-type': 'application/json; charset=utf-16' }, Buffer.from(body, 'utf16le'), 415, { error: 'unsupported_media_type', message: 'Content-Type: Unexpected charset "utf-16"; expected utf-8' }],
      [{ 'content-type': 'text/plain' }, body, 415, { error: 'unsupported_media_type', message: 'Content-Type: Unexpected "text/plain"; expected application/json' }],
    ];
    for (const [headers, sent, status, error] of cases) {
      t.same(answer(await send('POST', '/v1/projects', { ...json, ...headers }, sent)), [status, error], JSON.stringify(headers));
    }
    const claim = await send('POST', '/internal/v1/jobs/claim', { authorization: 'Bearer test-worker-secret', 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'garbage');
    t.same(answer(claim), [400, BAD_ENCODING], 'internal API');
  });

  t.test('should answer malformed ids and Git requests in the error shape', async (t) => {
    const object = await send('GET', '/internal/v1/jobs/%E0%A4%A/objects/a', { authorization: 'Bearer bt_x', 'x-folio-fencing': '1' });
    t.same(answer(object), [400, { error: 'invalid_request', message: 'id: Unexpected percent-encoding; expected a deployment id' }]);
    const git = await send('POST', '/git/edges.git/git-upload-pack', { authorization: basicAuth(tp.key), 'content-type': 'text/plain' }, 'garbage');
    t.same(answer(git), [415, { error: 'unsupported_media_type', message: 'Content-Type: Unexpected; expected application/x-git-upload-pack-request or application/x-git-receive-pack-request' }]);
  });
});
