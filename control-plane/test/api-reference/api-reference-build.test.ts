/**
 * The platform documents itself: its own `/v1/openapi.json`, fetched from a running API and
 * written into a fixture site at test time, built into API reference pages by the builder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { build, createLocalDirStore, type ObjectStore } from '@folio/builder';
import { startTestApi } from '../helpers/api.ts';

const read = async (store: ObjectStore, key: string) => {
  const bytes = await store.get(key);
  return bytes ? Buffer.from(bytes).toString('utf8') : undefined;
};

/** Every operation of the platform's document, in sidebar order: the API reference group, tag by tag. */
const OPERATION_ROUTES = [
  '/api-reference/projects/create-a-project', '/api-reference/projects/list-projects', '/api-reference/projects/get-a-project',
  '/api-reference/projects/update-a-project', '/api-reference/projects/delete-a-project',
  '/api-reference/projects/upload-the-project-logo', '/api-reference/projects/delete-the-project-logo', '/api-reference/projects/upload-an-asset',
  '/api-reference/deployments/trigger-a-deployment', '/api-reference/deployments/list-deployments', '/api-reference/deployments/get-a-deployment',
  '/api-reference/pages/list-pages', '/api-reference/pages/search-pages',
  '/api-reference/entitlements/read-the-organization-s-entitlements',
  '/api-reference/scim/scim-service-provider-configuration', '/api-reference/scim/the-user-and-group-schemas-stored-attributes-only',
  '/api-reference/scim/one-schema-by-urn', '/api-reference/scim/user-and-group', '/api-reference/scim/one-resource-type',
  '/api-reference/scim/list-or-filter-users', '/api-reference/scim/create-a-user', '/api-reference/scim/one-user',
  '/api-reference/scim/replace-a-user', '/api-reference/scim/change-part-of-a-user-patchop-add-replace-remove', '/api-reference/scim/delete-a-user',
  '/api-reference/scim/list-or-filter-groups', '/api-reference/scim/create-a-group', '/api-reference/scim/one-group',
  '/api-reference/scim/replace-a-group', '/api-reference/scim/change-part-of-a-group-patchop-add-replace-remove', '/api-reference/scim/delete-a-group',
  '/api-reference/webhooks/github-app-webhook',
  '/api-reference/analytics/analytics-overview', '/api-reference/analytics/analytics-breakdown', '/api-reference/analytics/ai-and-llm-insights',
  '/api-reference/chat-notifications/list-chat-notification-channels', '/api-reference/chat-notifications/add-a-chat-notification-channel',
  '/api-reference/chat-notifications/remove-a-chat-notification-channel', '/api-reference/chat-notifications/send-a-test-message',
  '/api-reference/ai/whether-the-ai-features-have-a-model',
  '/api-reference/meta/this-api-s-openapi-3-1-description',
];

t.test('API reference pages built from the platform\'s own OpenAPI document', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const spec = await (await fetch(`${api.url}/openapi.json`)).text();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-api-ref-'));
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  const site = path.join(root, 'site');
  const write = (files: Record<string, string>) => {
    for (const [p, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(site, p)), { recursive: true });
      fs.writeFileSync(path.join(site, p), text);
    }
  };
  write({
    'docs.json': JSON.stringify({ name: 'Folio', api: { openapi: 'openapi.json' } }),
    'index.mdx': '---\ntitle: Home\n---\n\nWelcome.\n',
    'openapi.json': spec,
  });
  const store = createLocalDirStore(path.join(root, 'out'));
  const run = () => build({ source: { kind: 'dir', dir: site }, store, siteUrl: 'https://docs.folio.test' });

  const first = await run();

  await t.test('should make one page per operation, grouped by tag, at exact routes', async (t) => {
    t.same([first.pagesTotal, first.pagesFailed, first.compiled, first.apiPagesGenerated], [OPERATION_ROUTES.length + 1, 0, 1, OPERATION_ROUTES.length]);
    const llms = (await read(store, 'llms.txt'))!;
    const routes = [...llms.matchAll(/\(https:\/\/docs\.folio\.test(\/api-reference\/[^)]+)\.md\)/g)].map((m) => m[1]);
    t.same(routes, OPERATION_ROUTES, 'llms.txt lists them in sidebar order: the API reference group, tag by tag');
    for (const route of routes) t.ok(await store.head(`${route.slice(1)}/index.html`), `${route} has a page`);
    t.match(llms, '- [List projects](https://docs.folio.test/api-reference/projects/list-projects.md): Newest created first. `total` counts every match of the filter, not just this page.\n');
  });

  await t.test('should render the parameters table with types, defaults and allowed values', async (t) => {
    const html = (await read(store, 'api-reference/projects/list-projects/index.html'))!;
    t.equal(html.match(/<table class="api-params">.*?<\/table>/s)?.[0],
      '<table class="api-params"><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>'
      + '<tr id="param-query-limit"><td><code>limit</code></td><td>query</td><td><code>integer</code></td><td>no</td><td>Maximum number of items, 1-100, default 20 Default: <code>20</code>.</td></tr>'
      + '<tr id="param-query-status"><td><code>status</code></td><td>query</td><td><code>string</code></td><td>no</td><td> Allowed: <code>&quot;pending&quot;</code>, <code>&quot;building&quot;</code>, <code>&quot;active&quot;</code>, <code>&quot;failed&quot;</code>.</td></tr>'
      + '</tbody></table>');
    t.match(html, '<p class="api-endpoint"><span class="api-method" data-method="GET">GET</span> <code class="api-path">/projects</code></p>');
    t.match(html, /<section class="api-try" data-api-try data-method="GET" data-path="\/projects" data-auth="\{&quot;kind&quot;:&quot;bearer&quot;\}" hidden>/);
    t.match(html, /<nav[^]*API reference[^]*Projects[^]*href="\/api-reference\/projects\/list-projects"/, 'the sidebar holds the API reference group');
  });

  await t.test('should export Markdown with the table, body fields and code samples', async (t) => {
    const md = (await read(store, 'api-reference/projects/list-projects.md'))!;
    t.equal(md.split('## Responses')[0], [
      '# List projects', '', '`GET /projects`', '',
      'Newest created first. `total` counts every match of the filter, not just this page.', '',
      '## Parameters', '', '| Name | In | Type | Required | Description |', '| --- | --- | --- | --- | --- |',
      '| `limit` | query | `integer` | no | Maximum number of items, 1-100, default 20 |',
      '| `status` | query | `string` | no |  |', '', '',
    ].join('\n'));
    t.match(md, ['```bash cURL', 'curl --request GET \\', `  --url '${api.url}/projects' \\`, "  --header 'Authorization: Bearer <token>'", '```'].join('\n'));
    const create = (await read(store, 'api-reference/projects/create-a-project.md'))!;
    t.match(create, '## Request body\n\n`application/json` `object`, required\n\n');
    t.match(create, ['```python Python', 'import requests', '', 'response = requests.request(', '    "POST",', `    "${api.url}/projects",`, '    headers={', '        "Authorization": "Bearer <token>",', '    },', '    json={'].join('\n'));
    t.match(create, ['```javascript JavaScript', `const response = await fetch("${api.url}/projects", {`, '  method: "POST",', '  headers: {', '    Authorization: "Bearer <token>",', '    "Content-Type": "application/json",', '  },', '  body: JSON.stringify({'].join('\n'));
  });

  await t.test('should list the pages in the sitemap', async (t) => {
    const sitemap = (await read(store, 'sitemap.xml'))!;
    t.match(sitemap, '<loc>https://docs.folio.test/api-reference/projects/list-projects</loc>');
    t.equal(sitemap.match(/<loc>https:\/\/docs\.folio\.test\/api-reference\//g)?.length, OPERATION_ROUTES.length);
  });

  await t.test('should generate nothing again while the document is unchanged', async (t) => {
    const again = await run();
    t.same([again.compiled, again.apiPagesGenerated, again.uploaded, again.deleted], [0, 0, 0, 0]);
  });

  await t.test('should regenerate the pages when the document changes', async (t) => {
    write({ 'openapi.json': spec.replace('"summary":"List projects"', '"summary":"List all projects"') });
    const changed = await run();
    t.same([changed.compiled, changed.apiPagesGenerated, changed.pagesTotal], [0, OPERATION_ROUTES.length, OPERATION_ROUTES.length + 1]);
    t.ok(await store.head('api-reference/projects/list-all-projects/index.html'));
    t.notOk(await store.head('api-reference/projects/list-projects/index.html'), 'the old route is gone');
  });

  await t.test('should place operations where navigation names them', async (t) => {
    write({ 'docs.json': JSON.stringify({ name: 'Folio', api: { openapi: '/openapi.json' }, navigation: ['index', { group: 'Projects API', pages: ['GET /projects', 'openapi.json POST /projects'] }] }) });
    await run();
    const html = (await read(store, 'index.html'))!;
    const sidebar = html.match(/<nav[^>]*class="sidebar[^]*?<\/nav>/)?.[0] ?? html;
    t.match(sidebar, /Projects API[^]*href="\/api-reference\/projects\/list-all-projects"[^]*href="\/api-reference\/projects\/create-a-project"/);
    t.notMatch(sidebar, 'API reference', 'no extra group once navigation places them');
  });

  await t.test('should read Mintlify\'s form: a tab or group with openapi and no pages holds the reference', async (t) => {
    write({ 'docs.json': JSON.stringify({ name: 'Folio', navigation: { tabs: [{ tab: 'Guides', pages: ['index'] }, { tab: 'API', openapi: 'openapi.json' }] } }) });
    const built = await run();
    t.equal(built.apiPagesGenerated, 0, 'the same document: nothing generated');
    const html = (await read(store, 'api-reference/pages/search-pages/index.html'))!;
    const sidebar = html.match(/<nav class="sidebar-nav"[^]*?<\/nav>/)?.[0] ?? '';
    t.match(sidebar, /<p class="nav-group-title">Projects<\/p>[^]*<p class="nav-group-title">Pages<\/p><ul><li><a href="\/api-reference\/pages\/list-pages">List pages<\/a><\/li><li><a href="\/api-reference\/pages\/search-pages" aria-current="page">Search pages<\/a>/);
    t.notMatch(sidebar, 'API reference', 'the tab places them: no extra group');
    write({ 'docs.json': JSON.stringify({ name: 'Folio', navigation: [{ group: 'Reference', openapi: { source: 'openapi.json' } }] }) });
    await run();
    t.match((await read(store, 'index.html'))!, /<p class="nav-group-title">Reference<\/p><ul><li class="nav-group"><p class="nav-group-title">Projects<\/p>/);
  });

  await t.test('should refuse an operation the document does not have, and a missing document', async (t) => {
    write({ 'docs.json': JSON.stringify({ name: 'Folio', api: { openapi: 'openapi.json' }, navigation: ['index', { group: 'API', pages: ['GET /nope'] }] }) });
    await t.rejects(run(), { code: 'invalid_config', message: 'docs.json: navigation[1].pages[0]: Unexpected "GET /nope"; expected an operation of api.openapi, such as GET /users' });
    write({ 'docs.json': JSON.stringify({ name: 'Folio', api: { openapi: 'specs/missing.yaml' } }) });
    await t.rejects(run(), { code: 'invalid_openapi', message: 'api.openapi: Unexpected "specs/missing.yaml"; expected the path of a file in the repository or an http(s) URL' });
    write({ 'docs.json': JSON.stringify({ name: 'Folio', api: { openapi: 'https://example.com/openapi.json' } }) });
    await t.rejects(run(), { code: 'invalid_openapi', message: 'api.openapi: Unexpected URL "https://example.com/openapi.json": this build cannot fetch documents; expected the path of a file in the repository' });
    write({ 'docs.json': JSON.stringify({ name: 'Folio', api: { openapi: 'bad.json' } }), 'bad.json': '{"openapi":"3.1.0","paths":{"/a":{"get":{"responses":{"200":{"$ref":"other.json#/x"}}}}}}' });
    await t.rejects(run(), { code: 'invalid_openapi', message: 'api.openapi: bad.json: Unexpected $ref "other.json#/x" at paths./a.get.responses.200; expected references inside the document (#/...)' });
  });
});
