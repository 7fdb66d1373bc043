/**
 * The "OpenAPI fan-out" battery, end to end (control plane, site server and a real worker):
 * a few kilobytes of OpenAPI whose schemas refer to one another many times deploy as pages of
 * bounded size in one attempt; a page too large to store fails as the customer's page failure,
 * once; a deployment the pages API cannot take fails as the customer's error, once, with the live
 * site left exactly as the last successful deployment made it; the page-report route answers an
 * oversized page with a 4xx, never a 500.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { startTestPlatform, type WorkerProcess } from '../helpers/platform.ts';

const fixture = (name: string) => fs.readFileSync(fileURLToPath(new URL(`../../../builder/test/fixtures/api-fan-out/${name}`, import.meta.url)), 'utf8');
/** Six schemas × twelve properties, each a `$ref` to the next (a 69.9 MB page before), and a cyclic `Node`. */
const FAN_OUT = fixture('openapi.json');
/** The same fan-out through references to properties (no named schema): one operation's page is too large. */
const TOO_BIG = fixture('too-big.json');

/** A page of about 6.2 MB of plain paragraphs: its source, HTML and search text (~18.6 MB) do not fit one stored page. */
function hugePage(): string {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa', 'lambda'];
  const paragraph = (i: number) => Array.from({ length: 120 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ');
  const paragraphs: string[] = [];
  for (let i = 0, size = 0; size < 6_200_000; i++) { const p = paragraph(i); paragraphs.push(p); size += p.length + 2; }
  return `---\ntitle: Huge\n---\n\n${paragraphs.join('\n\n')}\n`;
}

const HUGE_MESSAGE = /^huge\.mdx: Unexpected page of 1[78]\.\d MB \(its source, HTML and search text together\); expected at most 15\.0 MB: split it into smaller pages$/;

t.test('OpenAPI fan-out, deployed', async (t) => {
  // Every error the control plane answers with a 5xx is logged by its error middleware.
  const serverErrors: string[] = [];
  const tp = await startTestPlatform({}, { log: (message) => { if (/^[A-Z]+ \S+ failed$/.test(message)) serverErrors.push(message); } });
  t.teardown(() => tp.close());
  const project = (await tp.api('POST', '/projects', { name: 'Fan', slug: 'fan-site' })).body;
  const wc = await tp.workingCopy('fan-site', {
    'docs.json': JSON.stringify({ name: 'Fan', api: { openapi: 'openapi.json' } }),
    'index.mdx': '---\ntitle: Home\n---\n\nVersion one.\n',
    'openapi.json': FAN_OUT,
    // Longer than the pages API stores: shortened in its record, not a refused report (which was retried).
    'long.mdx': `---\ntitle: ${'T'.repeat(1200)}\ndescription: ${'D'.repeat(6000)}\n---\n\nLong.\n`,
  });
  const worker: WorkerProcess = tp.startWorker();
  const attemptsOf = async (id: string) => (await tp.p.cp.m.Deployment.findById(id).lean())!.attempts;
  const workerErrors = () => worker.lines.filter((l) => /answered 5\d\d/.test(l));

  let home = '';
  await t.test('should deploy the fan-out document in one attempt with pages of bounded size', async (t) => {
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.same([d.status, d.pages_total, d.pages_failed, d.error ?? null], ['deployed', 4, 0, null]);
    t.equal(await attemptsOf(d.id), 1, 'built once, not retried');
    const fan = await tp.site('fan-site', '/api-reference/fan/fan-out');
    t.equal(fan.status, 200);
    t.ok(Buffer.byteLength(fan.body) < 1_000_000, `the page is ${Buffer.byteLength(fan.body)} bytes`);
    t.equal(fan.body.split('id="schema-S1"').length - 1, 1, 'S1 listed once');
    t.equal(fan.body.split('<a href="#schema-S1">').length - 1, 11, 'its other eleven uses link to it');
    const md = await tp.site('fan-site', '/api-reference/fan/fan-out.md');
    t.ok(md.status === 200 && Buffer.byteLength(md.body) < 1_000_000, `the Markdown export is ${Buffer.byteLength(md.body)} bytes`);
    const nodes = await tp.site('fan-site', '/api-reference/fan/tree-of-nodes');
    t.equal(nodes.body.split('<a href="#schema-Node">').length - 1, 2, 'the cycle links back to its own listing');
    const pages = await tp.api('GET', `/projects/${project.id}/pages?limit=50`);
    t.ok(pages.body.data.some((p: { path: string }) => p.path === '/api-reference/fan/fan-out'), 'the pages API has the page');
    const long = pages.body.data.find((p: { path: string }) => p.path === '/long');
    t.same([long.title.length, long.title.at(-1), long.description.length], [1000, '…', 5000]);
  });

  await t.test('should fail an API page still too large as the customer\'s page failure', async (t) => {
    await wc.write({ 'openapi.json': TOO_BIG });
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.same([d.status, d.pages_total, d.pages_failed], ['deployed', 4, 1]);
    t.equal(d.error, 'openapi.json#POST /big: Unexpected size of the API reference page of POST /big: its parameters and schemas list more than 5,000 fields '
      + '(each named schema listed once); expected at most 5,000. In openapi.json, put repeated objects in components.schemas and reference them '
      + 'with $ref (each is listed once per page and linked after), or split the largest schemas and shorten their descriptions and examples');
    t.equal(await attemptsOf(d.id), 1);
    t.equal((await tp.site('fan-site', '/api-reference/fan/small')).status, 200);
  });

  await t.test('should fail a page too large for the pages API as the customer\'s page failure, once', async (t) => {
    await wc.write({ 'index.mdx': '---\ntitle: Home\n---\n\nVersion two.\n', 'huge.mdx': hugePage(), 'openapi.json': FAN_OUT });
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha, 300_000);
    t.same([d.status, d.pages_total, d.pages_failed], ['deployed', 5, 1]);
    t.match(d.error, HUGE_MESSAGE);
    t.equal(await attemptsOf(d.id), 1, 'a customer error is not retried');
    t.equal((await tp.site('fan-site', '/huge')).status, 404, 'the failed page is not served');
    const pages = await tp.api('GET', `/projects/${project.id}/pages?limit=50`);
    t.notOk(pages.body.data.some((p: { path: string }) => p.path === '/huge'));
    home = (await tp.site('fan-site', '/')).body;
    t.match(home, 'Version two.');
  });

  await t.test('should fail a deployment the pages API cannot take once, as the customer\'s error, and keep serving the last good version', async (t) => {
    // A URL longer than the pages API stores (1,000 characters): refused with 400 before, which the worker retried.
    const deep = `${['a', 'b', 'c', 'd', 'e'].map((c) => c.repeat(220)).join('/')}/page`;
    await wc.write({ 'index.mdx': '---\ntitle: Home\n---\n\nVersion three.\n', [`${deep}.mdx`]: '---\ntitle: Deep\n---\n\nDeep.\n' }, ['huge.mdx']);
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.same([d.status, d.error], ['failed', `${deep}.mdx: Unexpected URL path of ${deep.length + 1} characters; expected at most 1000: use a shorter file path`]);
    t.equal(await attemptsOf(d.id), 1, 'a customer error is not retried');
    t.equal((await tp.site('fan-site', '/')).body, home, 'the home page is byte for byte the last successful deployment\'s');
    t.equal((await tp.site('fan-site', `/${deep}`)).status, 404, 'the failed deployment\'s new page is not served');
    t.equal((await tp.site('fan-site', '/huge')).status, 404);
  });

  await t.test('should answer a page report with a page too large to store with 413 page_too_large', async (t) => {
    worker.kill('SIGTERM');
    await new Promise((r) => worker.child.once('exit', r));
    await wc.write({ 'index.mdx': '---\ntitle: Home\n---\n\nVersion four.\n' });
    await wc.push();
    const claim = await fetch(`${tp.p.internalUrl}/internal/v1/jobs/claim`, {
      method: 'POST', headers: { authorization: 'Bearer test-worker-secret', 'content-type': 'application/json' }, body: JSON.stringify({ worker_id: 'test' }),
    });
    t.equal(claim.status, 200);
    const job = await claim.json() as { deployment_id: string; fencing: number; token: string };
    const report = (upserts: unknown[]) => fetch(`${tp.p.internalUrl}/internal/v1/jobs/${job.deployment_id}/pages`, {
      method: 'POST', headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ fencing: job.fencing, upserts }),
    });
    const page = { path: '/big', title: 'Big', description: '', source_mdx: 'x'.repeat(9 * 1024 * 1024), compiled_html: 'y'.repeat(8 * 1024 * 1024), search_text: '' };
    const res = await report([page]);
    t.equal(res.status, 413);
    t.same(await res.json(), {
      error: 'page_too_large',
      message: '/big: Unexpected page of 17.0 MB (its source, HTML and search text together); expected at most 16.0 MB, the size of one stored page: split it into smaller pages',
    });
    const fits = await report([{ ...page, source_mdx: 'x', compiled_html: '<p>fits</p>' }]);
    t.equal(fits.status, 204, 'the same job reports a page that fits');
    const release = await fetch(`${tp.p.internalUrl}/internal/v1/jobs/${job.deployment_id}/release`, {
      method: 'POST', headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ fencing: job.fencing }),
    });
    t.equal(release.status, 204);
  });

  t.test('should have answered no request with a 5xx', async (t) => {
    t.same(serverErrors, []);
    t.same(workerErrors(), []);
  });
});
