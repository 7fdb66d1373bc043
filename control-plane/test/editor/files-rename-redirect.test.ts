/**
 * A page renamed in the web editor keeps its old URL: moved as drafts (with the links to it
 * rewritten), published as one commit, built by a real builder worker, and served by the site
 * server, where the old URL answers a 308 to the new one, as the build's rename detection makes
 * it for a `git mv` (no docs.json redirect is written).
 */
import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';
import { addUser, dash, signIn } from '../helpers/dashboard.ts';
import type { TestApi } from '../helpers/api.ts';

const FILES: Record<string, string> = {
  'docs.json': '{\n  "name": "Docs",\n  "navigation": [\n    { "group": "Start", "pages": ["index", "guides/install"] }\n  ]\n}\n',
  'index.mdx': '---\ntitle: Home\n---\n\n# Welcome\n\nRead [the install guide](/guides/install) first.\n',
  'guides/install.mdx': '---\ntitle: Install\n---\n\n## Requirements\n\nNode and Git.\n',
};

t.test('a renamed page keeps its old URL', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const api = { cp: tp.p.cp, url: tp.p.cp.apiUrl, clock: { now: new Date() } } as unknown as TestApi;
  const auth = await signIn(api, (await addUser(api, tp.orgId, 'editor')).email);
  const project = (await tp.api('POST', '/projects', { name: 'Docs', slug: `rename-${process.pid}` })).body;
  const wc = await tp.workingCopy(project.slug, FILES);
  await wc.push();
  tp.startWorker();
  await tp.waitForDeployment(project.id, (d) => d.status === 'deployed');
  t.equal((await tp.site(project.slug, '/guides/install')).status, 200);
  const base = `/projects/${project.id}/editor`;

  const moved = await dash(api, 'POST', `${base}/move`, { auth, body: { from: 'guides/install.mdx', to: 'guides/installation.mdx', update_links: true } });
  t.same([moved.status, moved.body.updated], [200, ['index.mdx', 'docs.json']], moved.text);
  const published = await dash(api, 'POST', `${base}/publish`, { auth, body: { message: 'Rename the install guide' } });
  t.equal(published.status, 200, published.text);
  const d = await tp.waitForDeployment(project.id, (x) => x.id === published.body.deployment_id);
  t.equal(d.status, 'deployed', JSON.stringify(d));

  const old = await tp.site(project.slug, '/guides/install');
  t.same([old.status, old.headers.get('location')], [308, '/guides/installation'], 'the old URL redirects to the new one');
  const page = await tp.site(project.slug, '/guides/installation');
  t.equal(page.status, 200);
  t.match(page.body, 'Node and Git.');
  t.match((await tp.site(project.slug, '/')).body, 'href="/guides/installation"', 'the link on the home page was rewritten');
  t.same((await dash(api, 'GET', `${base}/drafts`, { auth })).body.data, [], 'nothing left to publish');
});
