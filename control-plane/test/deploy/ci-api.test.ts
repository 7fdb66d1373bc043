import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import t from 'tap';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createOrganization } from '../../src/admin/organizations.ts';
import { claimJob } from '../../src/deploy/claim-job.ts';
import { completeJob, releaseJob } from '../../src/deploy/queue.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const SHA = 'a'.repeat(40);
const LEASE_LOST = { error: 'lease_lost', message: 'This build no longer holds the deployment\'s lease; another worker has taken it over or it has finished' };

t.test('ci api', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const base = `${tp.p.internalUrl}/internal/v1`;
  const newProject = async (slug: string) => (await tp.api('POST', '/projects', { name: slug, slug })).body;
  const create = async (key: string | undefined, body: unknown) => {
    const res = await fetch(`${base}/ci/deployments`, { method: 'POST', headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json(), location: res.headers.get('location') };
  };
  /** A raw request: node:http with `path` sends it exactly as written (fetch and URLs resolve `..`). */
  const raw = (method: string, path: string, headers: Record<string, string>, body?: Buffer) => new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const origin = new URL(tp.p.internalUrl);
    const req = http.request({ host: origin.hostname, port: origin.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
  const triggerOnly = (await createApiKey(tp.p.cp.m, { orgId: tp.orgId, scopes: ['deployments:trigger'] })).key;

  t.test('should refuse a key without deployments:trigger', async (t) => {
    const project = await newProject('ci-scope');
    const { key } = await createApiKey(tp.p.cp.m, { orgId: tp.orgId, scopes: ['deployments:read', 'projects:write'] });
    const res = await create(key, { project_id: project.id, commit_sha: SHA });
    t.same([res.status, res.body], [403, { error: 'forbidden', message: 'This API key lacks the scope deployments:trigger' }]);
    t.equal(await tp.p.cp.m.Deployment.countDocuments({ project_id: project.id }), 0, 'nothing created');
  });

  t.test('should answer another organization\'s project like a missing one', async (t) => {
    const other = await createOrganization(tp.p.cp.m, `ci-other-${process.pid}`, 'pro');
    const { key } = await createApiKey(tp.p.cp.m, { orgId: other._id });
    const mine = await newProject('ci-mine');
    const res = await create(key, { project_id: mine.id, commit_sha: SHA });
    t.same([res.status, res.body], [404, { error: 'not_found', message: 'project not found' }]);
    const missing = await create(triggerOnly, { project_id: '00000000-0000-4000-8000-000000000000', commit_sha: SHA });
    t.same([missing.status, missing.body], [404, { error: 'not_found', message: 'project not found' }]);
  });

  t.test('should refuse a missing key and a short commit id', async (t) => {
    const res = await create(undefined, { project_id: 'x', commit_sha: SHA });
    t.same([res.status, res.body], [401, { error: 'unauthorized', message: 'Missing Authorization header; expected "Bearer <API key>"' }]);
    const short = await create(triggerOnly, { project_id: 'x', commit_sha: 'abc123' });
    t.same([short.status, short.body], [400, { error: 'invalid_request', message: 'commit_sha: must be a full 40-character lowercase hex commit id' }]);
  });

  const project = await newProject('ci-objects');
  const created = await create(triggerOnly, { project_id: project.id, commit_sha: SHA });
  const job = created.body;
  const auth = (fencing = job.fencing, token = job.token) => ({ authorization: `Bearer ${token}`, 'x-folio-fencing': String(fencing) });
  const objects = `/internal/v1/jobs/${job.deployment_id}/objects`;

  t.test('should create a building CI deployment leased to the caller', async (t) => {
    t.equal(created.status, 201);
    t.match(job.token, /^bt_[A-Za-z0-9_-]{32}$/);
    t.same({ ...job, token: 'bt_…' }, {
      deployment_id: job.deployment_id, fencing: 1, token: 'bt_…', lease_ms: 30_000, commit_sha: SHA,
      project: { id: project.id, slug: 'ci-objects' },
      site: { prefix: `sites/${project.id}/`, url: tp.p.cp.deps.env.siteUrlTemplate.replace('{slug}', 'ci-objects') },
      store: { url: `/internal/v1/jobs/${job.deployment_id}/objects` },
    });
    t.equal(created.location, `${tp.p.cp.apiUrl}/projects/${project.id}/deployments/${job.deployment_id}`);
    const d = await tp.p.cp.m.Deployment.findById(job.deployment_id).lean();
    t.same([d!.status, d!.trigger, d!.commit_sha, d!.finished_at], ['building', 'ci', SHA, null]);
    t.equal((await tp.api('GET', `/projects/${project.id}`)).body.status, 'building');
    const again = await create(triggerOnly, { project_id: project.id, commit_sha: SHA });
    t.same([again.status, again.body], [409, { error: 'conflict', message: 'Another build of this project is in progress; run the CI job again when it has finished' }]);
  });

  t.test('should store, read, list and delete objects under the project\'s prefix only', async (t) => {
    const bytes = Buffer.from('<h1>Guide</h1>\n');
    const put = await raw('PUT', `${objects}/guides/my%20guide.html`, { ...auth(), 'x-folio-content-type': 'text/html; charset=utf-8', 'x-folio-cache-control': 'public, max-age=60' }, bytes);
    t.same([put.status, put.body], [204, '']);
    t.same(Buffer.from((await tp.p.store.get(`sites/${project.id}/guides/my guide.html`))!), bytes, 'stored at sites/<project id>/<key>');
    const got = await raw('GET', `${objects}/guides/my%20guide.html`, auth());
    t.same([got.status, got.body], [200, '<h1>Guide</h1>\n']);
    const head = await raw('HEAD', `${objects}/guides/my%20guide.html`, auth());
    t.same([head.status, head.headers.etag, head.headers['x-folio-size'], head.body], [200, `"${createHash('md5').update(bytes).digest('hex')}"`, '15', '']);
    await raw('PUT', `${objects}/index.html`, auth(), Buffer.from('home'));
    t.same(JSON.parse((await raw('GET', objects, auth())).body), { keys: ['guides/my guide.html', 'index.html'] });
    t.same(JSON.parse((await raw('GET', `${objects}?prefix=guides/`, auth())).body), { keys: ['guides/my guide.html'] });
    t.same([(await raw('DELETE', `${objects}/index.html`, auth())).status], [204]);
    const gone = await raw('GET', `${objects}/index.html`, auth());
    t.same([gone.status, JSON.parse(gone.body)], [404, { error: 'not_found', message: 'object not found' }]);
    t.equal((await raw('HEAD', `${objects}/index.html`, auth())).status, 404);
  });

  t.test('should stream uploads to storage: a size required, 512 MB at most, 32 in flight per deployment', async (t) => {
    /** A PUT announcing `size` bytes that sends `first` of them now; `finish` sends the rest. */
    const upload = (key: string, headers: Record<string, string>, first: Buffer) => {
      const origin = new URL(tp.p.internalUrl);
      let req!: http.ClientRequest;
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        req = http.request({ host: origin.hostname, port: origin.port, path: `${objects}/${key}`, method: 'PUT', headers: { ...auth(), ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => { req.destroy(); resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }); });
        });
        req.on('error', (err) => { if (!req.destroyed) reject(err); });
        req.write(first);
      });
      return { answer, finish: (rest: Buffer) => req.end(rest) };
    };
    const chunked = upload('chunked.txt', { 'transfer-encoding': 'chunked' }, Buffer.from('abc'));
    chunked.finish(Buffer.alloc(0));
    t.same(await chunked.answer, { status: 411, body: JSON.stringify({ error: 'length_required', message: 'Missing Content-Length header; expected the object\'s size in bytes' }) });
    const huge = upload('huge.txt', { 'content-length': String(512 * 1024 * 1024 + 1) }, Buffer.alloc(1024, 32));
    t.same(await huge.answer, { status: 413, body: JSON.stringify({ error: 'payload_too_large', message: 'Request body exceeds the 512 MB limit' }) }, 'answered before the body is sent');

    // 32 uploads hold their slots while their senders are slow: each has sent 1 byte of 2.
    const slow = Array.from({ length: 32 }, (_, i) => upload(`slow/${i}.txt`, { 'content-length': '2' }, Buffer.from('a')));
    const tempFiles = () => fs.readdirSync(tp.dataDir, { recursive: true, encoding: 'utf8' }).filter((name) => name.includes('.folio-tmp-')).length;
    while (tempFiles() < 32) await new Promise((resolve) => setTimeout(resolve, 20));
    const over = upload('slow/over.txt', { 'content-length': '2' }, Buffer.from('zz'));
    t.same(await over.answer, { status: 429, body: JSON.stringify({ error: 'rate_limited', message: 'Too many uploads in flight; expected at most 32 per deployment' }) });
    for (const u of slow) u.finish(Buffer.from('b'));
    t.same((await Promise.all(slow.map((u) => u.answer))).map((a) => a.status), Array(32).fill(204));
    t.same(Buffer.from((await tp.p.store.get(`sites/${project.id}/slow/31.txt`))!).toString(), 'ab');
    const after = upload('slow/over.txt', { 'content-length': '2' }, Buffer.from('zz'));
    t.same((await after.answer).status, 204, 'the slots are free again');
    const head = await raw('HEAD', `${objects}/slow/over.txt`, auth());
    t.same([head.headers.etag, head.headers['x-folio-size']], [`"${createHash('md5').update('zz').digest('hex')}"`, '2']);
    await tp.p.store.delete((await tp.p.store.list(`sites/${project.id}/slow/`)));
  });


  t.test('should keep the builder\'s state outside the public prefix', async (t) => {
    await raw('PUT', `${objects}/_folio/cache/pages/k1.json.gz`, auth(), Buffer.from('state'));
    await raw('PUT', `${objects}/_folio/client-1.js`, auth(), Buffer.from('bundle'));
    t.same(Buffer.from((await tp.p.store.get(`state/${project.id}/pages/k1.json.gz`))!).toString(), 'state', 'stored at state/<project id>/');
    t.equal(await tp.p.store.get(`sites/${project.id}/_folio/cache/pages/k1.json.gz`), undefined, 'not under the site');
    const got = await raw('GET', `${objects}/_folio/cache/pages/k1.json.gz`, auth());
    t.same([got.status, got.body], [200, 'state']);
    const list = async (prefix?: string) => JSON.parse((await raw('GET', prefix === undefined ? objects : `${objects}?prefix=${prefix}`, auth())).body).keys;
    t.same(await list(), ['_folio/cache/pages/k1.json.gz', '_folio/client-1.js', 'guides/my guide.html']);
    t.same(await list('_folio/'), ['_folio/cache/pages/k1.json.gz', '_folio/client-1.js']);
    t.same(await list('_folio/cache/pages/'), ['_folio/cache/pages/k1.json.gz']);
    t.same(await list('guides/'), ['guides/my guide.html']);
    t.same([(await raw('DELETE', `${objects}/_folio/cache/pages/k1.json.gz`, auth())).status], [204]);
    t.equal(await tp.p.store.get(`state/${project.id}/pages/k1.json.gz`), undefined);
    await raw('DELETE', `${objects}/_folio/client-1.js`, auth());
  });
  t.test('should refuse keys that leave the prefix, however encoded', async (t) => {
    const refused = (key: string) => ({ error: 'invalid_request', message: `key: Unexpected object key "${key}"; expected a relative path without "." or ".." segments` });
    for (const [path, key] of [['../other/x.html', '../other/x.html'], ['a/../../x', 'a/../../x'], ['%2e%2e%2fother%2fx', '../other/x'], ['..%2F..%2Fsecrets', '../../secrets'], ['%2Fetc%2Fpasswd', '/etc/passwd'], ['a%5C..%5Cb', 'a\\..\\b']]) {
      const res = await raw('PUT', `${objects}/${path}`, auth(), Buffer.from('x'));
      t.same([res.status, JSON.parse(res.body)], [400, refused(key)], path);
    }
    const list = await raw('GET', `${objects}?prefix=../`, auth());
    t.same([list.status, JSON.parse(list.body)], [400, { error: 'invalid_request', message: 'prefix: Unexpected object key ".."; expected a relative path without "." or ".." segments' }]);
    t.same(await tp.p.store.list('sites/'), [`sites/${project.id}/guides/my guide.html`], 'nothing written anywhere else');
  });

  t.test('should answer 409 lease_lost to a stale fencing token or another build\'s token', async (t) => {
    for (const headers of [auth(job.fencing + 1), auth(job.fencing, 'bt_not-this-build'), auth(job.fencing - 1 || 2)]) {
      const res = await raw('PUT', `${objects}/index.html`, headers, Buffer.from('late'));
      t.same([res.status, JSON.parse(res.body)], [409, LEASE_LOST]);
    }
    const missing = await raw('GET', `${objects}/index.html`, { authorization: `Bearer ${job.token}` });
    t.same([missing.status, JSON.parse(missing.body)], [400, { error: 'invalid_request', message: 'X-Folio-Fencing: Unexpected or missing header; expected the job\'s fencing token (a positive integer)' }]);
    t.equal(await tp.p.store.get(`sites/${project.id}/index.html`), undefined);
  });

  t.test('should check a job report\'s credentials before reading its body', async (t) => {
    // Announces a 60 MB body and sends 1 KB: the answer must come without the rest.
    const early = (route: string, authorization?: string) => new Promise<{ status: number; body: string }>((resolve, reject) => {
      const origin = new URL(tp.p.internalUrl);
      const req = http.request({ host: origin.hostname, port: origin.port, path: `/internal/v1${route}`, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(60 * 1024 * 1024), ...(authorization ? { authorization } : {}) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => { req.destroy(); resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }); });
      });
      req.on('error', (err) => { if (!req.destroyed) reject(err); });
      req.write(Buffer.alloc(1024, 32));
    });
    const pages = `/jobs/${job.deployment_id}/pages`;
    t.same(await early(pages), { status: 401, body: JSON.stringify({ error: 'unauthorized', message: 'Missing build token' }) });
    t.same(await early(pages, 'Bearer bt_not-this-build'), { status: 409, body: JSON.stringify(LEASE_LOST) });
    t.same(await early('/jobs/claim', 'Bearer not-the-secret'), { status: 401, body: JSON.stringify({ error: 'unauthorized', message: 'Invalid worker secret' }) });
  });

  t.test('should stop answering once the deployment is complete', async (t) => {
    const res = await fetch(`${base}/jobs/${job.deployment_id}/complete`, { method: 'POST', headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ fencing: job.fencing, status: 'deployed', pages_total: 0 }) });
    t.equal(res.status, 204);
    const after = await raw('GET', `${objects}/guides/my%20guide.html`, auth());
    t.same([after.status, JSON.parse(after.body)], [409, LEASE_LOST]);
  });

  t.test('should fail a CI deployment rather than hand it to a worker', async (t) => {
    const m = tp.p.cp.m;
    const p = await newProject('ci-final');
    const lapsed = (await create(triggerOnly, { project_id: p.id, commit_sha: SHA })).body;
    const later = new Date(Date.now() + 10 * 60_000);
    t.equal(await claimJob(m, 'worker-1', later), undefined, 'a worker cannot claim it: it has no checkout');
    const d1 = await m.Deployment.findById(lapsed.deployment_id).lean();
    t.same([d1!.status, d1!.error], ['failed', 'The CI run stopped reporting before it finished; run the CI job again']);

    const released = (await create(triggerOnly, { project_id: p.id, commit_sha: SHA })).body;
    await releaseJob(m, { deploymentId: released.deployment_id, fencing: released.fencing, token: released.token }, new Date());
    const d2 = await m.Deployment.findById(released.deployment_id).lean();
    t.same([d2!.status, d2!.error], ['failed', 'The CI run was stopped before it finished']);

    const retried = (await create(triggerOnly, { project_id: p.id, commit_sha: SHA })).body;
    await completeJob(m, { deploymentId: retried.deployment_id, fencing: retried.fencing, token: retried.token }, { status: 'failed', retryable: true, error: 'storage down' }, new Date());
    const d3 = await m.Deployment.findById(retried.deployment_id).lean();
    t.same([d3!.status, d3!.error], ['failed', 'storage down'], 'a retryable failure is final: no worker could retry it');
    t.equal(await m.Deployment.countDocuments({ project_id: p.id, status: 'queued' }), 0);
  });

  t.test('should delete a project\'s site and builder state with the project', async (t) => {
    const doomed = await newProject('ci-doomed');
    await tp.p.store.put(`sites/${doomed.id}/index.html`, Buffer.from('home'));
    await tp.p.store.put(`state/${doomed.id}/manifest.json.gz`, Buffer.from('state'));
    t.equal((await tp.api('DELETE', `/projects/${doomed.id}`)).status, 204);
    t.same([await tp.p.store.list(`sites/${doomed.id}/`), await tp.p.store.list(`state/${doomed.id}/`)], [[], []]);
  });
});
