/**
 * `api.openapi` as a URL in a real deployment: the build process asks the control plane to
 * download it, and the control plane's fetcher refuses addresses of the platform's own network.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';

const SPEC = JSON.stringify({
  openapi: '3.1.0', info: { title: 'Pets', version: '1' }, servers: [{ url: 'https://api.pets.test' }],
  paths: { '/pets': { get: { tags: ['Pets'], summary: 'List pets', responses: { 200: { description: 'The pets' } } } } },
});

t.test('api.openapi fetched by URL during a deployment', async (t) => {
  const docs = http.createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end(req.url === '/openapi.json' ? SPEC : '{}'); });
  await new Promise<void>((r) => docs.listen(0, '127.0.0.1', r));
  const port = (docs.address() as AddressInfo).port;
  // The one loopback host:port the fetcher may reach here, as a single-machine install serving its own documents would allow.
  const tp = await startTestPlatform({}, { services: { fetchAllowHosts: [`127.0.0.1:${port}`] } });
  t.teardown(async () => { await tp.close(); docs.close(); });
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);
  const project = (await tp.api('POST', '/projects', { name: 'Pets', slug: 'pets-url' })).body;
  const files = (openapi: string) => ({ 'docs.json': JSON.stringify({ name: 'Pets', api: { openapi } }), 'docs/index.mdx': '---\ntitle: Home\n---\n\nHi.\n' });
  const wc = await tp.workingCopy('pets-url', files(`http://127.0.0.1:${port}/openapi.json`));
  const settled = (sha: string) => tp.waitForDeployment(project.id, (x) => x.commit_sha === sha && (x.status === 'deployed' || x.status === 'failed'));

  t.test('should build the reference pages of a document the control plane downloads', async (t) => {
    const d = await settled(await wc.push());
    t.same([d.status, d.pages_total, d.error], ['deployed', 2, null]);
    const page = await tp.site('pets-url', '/api-reference/pets/list-pets');
    t.equal(page.status, 200);
    t.match(page.body, '<code class="api-path">/pets</code>');
  });

  t.test('should fail the deployment with the fetcher\'s reason for a private address', async (t) => {
    await wc.write(files(`http://127.0.0.2:${port}/openapi.json`));
    const d = await settled(await wc.push());
    t.same([d.status, d.error], ['failed', 'api.openapi: URL resolves to a private address (127.0.0.2); only public addresses are allowed']);
    t.equal((await tp.site('pets-url', '/api-reference/pets/list-pets')).status, 200, 'the previous site stays live');
  });
});
