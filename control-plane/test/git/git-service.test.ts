import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import t from 'tap';
import { repoPath } from '../../src/git/managed-repos.ts';
import { refAdvertisement } from '../../src/git/ref-advertisement.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const run = promisify(execFile);

/** What `git http-backend` itself answers for `pathInfo` of `gitdir` (headers and body), as the CGI prints it. */
function httpBackend(gitdir: string, method: string, query: string, protocol = ''): { headers: Record<string, string>; body: Buffer } {
  const out = execFileSync('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH, GIT_PROJECT_ROOT: path.dirname(gitdir), GIT_HTTP_EXPORT_ALL: '1', PATH_INFO: `/${path.basename(gitdir)}/info/refs`,
      REQUEST_METHOD: method, QUERY_STRING: query, REMOTE_USER: 'folio', REMOTE_ADDR: '127.0.0.1', ...(protocol ? { GIT_PROTOCOL: protocol } : {}),
    },
  });
  const end = out.indexOf('\r\n\r\n');
  const headers = Object.fromEntries(out.subarray(0, end).toString().split('\r\n').map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { headers, body: out.subarray(end + 4) };
}

t.test('git service', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const project = (await tp.api('POST', '/projects', { name: 'Service', slug: 'git-service' })).body;
  const wc = await tp.workingCopy('git-service', { 'docs.json': '{"name":"Service"}', 'docs/index.mdx': '# Home\n' });
  let head = await wc.push();
  const gitdir = repoPath(tp.p.cp.deps, project.id);
  const base = `${tp.p.internalUrl}/git/git-service.git`;
  const auth = { authorization: `Basic ${Buffer.from(`git:${tp.key}`).toString('base64')}` };

  await t.test('should advertise refs byte for byte as git http-backend does, for both services and protocols', async (t) => {
    for (const [service, protocol] of [['git-upload-pack', ''], ['git-upload-pack', 'version=2'], ['git-receive-pack', '']]) {
      const res = await fetch(`${base}/info/refs?service=${service}`, { headers: { ...auth, ...(protocol ? { 'git-protocol': protocol } : {}) } });
      const body = Buffer.from(await res.arrayBuffer());
      const expected = httpBackend(gitdir, 'GET', `service=${service}`, protocol);
      t.same([res.status, res.headers.get('content-type'), res.headers.get('cache-control')], [200, expected.headers['content-type'], expected.headers['cache-control']], `${service} ${protocol}`);
      t.equal(body.toString('latin1'), expected.body.toString('latin1'), `${service} ${protocol}`);
    }
  });

  await t.test('should keep an advertisement while the refs are unchanged, and make it again when any ref moves', async (t) => {
    const first = await refAdvertisement(gitdir, 'git-upload-pack', '');
    t.equal(await refAdvertisement(gitdir, 'git-upload-pack', ''), first, 'the same answer, from memory');
    // A protocol header no Git client sends is answered, never kept (each would be one more entry).
    const odd = await refAdvertisement(gitdir, 'git-upload-pack', 'version=0:x=1');
    t.not(await refAdvertisement(gitdir, 'git-upload-pack', 'version=0:x=1'), odd, 'made again for each request');
    t.equal(odd.toString('latin1'), first.toString('latin1'));
    await wc.write({ 'docs/index.mdx': '# Home, edited\n' });
    head = await wc.push();
    const pushed = await refAdvertisement(gitdir, 'git-upload-pack', '');
    t.not(pushed, first);
    t.match(pushed.toString('latin1'), `${head} refs/heads/main`);
    // Not only branches: a tag is advertised too.
    await run('git', ['tag', 'v1'], { cwd: wc.dir });
    await run('git', ['push', '-q', 'origin', 'v1'], { cwd: wc.dir });
    t.match((await refAdvertisement(gitdir, 'git-upload-pack', '')).toString('latin1'), `${head} refs/tags/v1`);
  });

  await t.test('should answer a gzipped fetch request with the pack', async (t) => {
    const request = Buffer.from(`0032want ${head}\n00000009done\n`);
    const res = await fetch(`${base}/git-upload-pack`, {
      method: 'POST', body: zlib.gzipSync(request),
      headers: { ...auth, 'content-type': 'application/x-git-upload-pack-request', 'content-encoding': 'gzip' },
    });
    const body = Buffer.from(await res.arrayBuffer());
    t.same([res.status, res.headers.get('content-type')], [200, 'application/x-git-upload-pack-result']);
    t.equal(body.subarray(0, 8).toString('latin1'), '0008NAK\n');
    t.equal(body.subarray(8, 12).toString('latin1'), 'PACK');
  });

  await t.test('should clone and fetch with the git CLI', async (t) => {
    const dir = fs.mkdtempSync(path.join(tp.dataDir, 'clone-'));
    await run('git', ['clone', '-q', `${base.replace('http://', `http://git:${tp.key}@`)}`, dir]);
    t.equal((await run('git', ['rev-parse', 'HEAD'], { cwd: dir })).stdout.trim(), head);
    await wc.write({ 'docs/index.mdx': '# Home, again\n' });
    head = await wc.push();
    await run('git', ['fetch', '-q'], { cwd: dir });
    t.equal((await run('git', ['rev-parse', 'origin/main'], { cwd: dir })).stdout.trim(), head);
  });

  await t.test('should still keep the repository packed: git gc --auto runs after a push\'s answer', async (t) => {
    // Every push kept as a pack, and more than one pack is too many: a gc --auto repacks them into one
    // (without detaching, so the pack is there when it ends).
    for (const [key, value] of [['receive.unpackLimit', '1'], ['gc.autoPackLimit', '1'], ['gc.autoDetach', 'false']]) await run('git', ['config', key, value], { cwd: gitdir });
    const packs = () => fs.readdirSync(path.join(gitdir, 'objects', 'pack')).filter((f) => f.endsWith('.pack')).length;
    for (const edit of [1, 2]) {
      await wc.write({ 'docs/index.mdx': `# Home, packed ${edit}\n` });
      await wc.push();
    }
    const deadline = Date.now() + 30_000;
    while (packs() !== 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    t.equal(packs(), 1, 'the two pushes\' packs repacked into one');
  });
});
