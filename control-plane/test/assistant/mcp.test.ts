import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import t from 'tap';
import { BOOLEAN_FEATURES } from '../../src/entitlements/plans.ts';
import { EXTRA_PAGES, HUMANS_ONLY } from './fixture-pages.ts';
import { startSiteFixture } from './site-fixture.ts';

t.test('MCP endpoint', async (t) => {
  const f = await startSiteFixture();
  t.teardown(() => f.close());
  const acme = await f.publish('free', EXTRA_PAGES);
  // The site answers on a custom domain, so the SDK's own fetch reaches it by URL alone.
  // (a verified domain, as the dashboard records one: the site server serves no other).
  const project = await f.api.cp.m.Project.findByIdAndUpdate(acme.id, { $set: { custom_domain: '127.0.0.1' } }).lean();
  await f.api.cp.m.Domain.create({ hostname: '127.0.0.1', org_id: project!.org_id, project_id: acme.id, status: 'verified', verification_token: 'test', verified_at: new Date() });
  const origin = `http://${acme.slug}.localhost`;
  const client = new Client({ name: 'folio-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${f.site.url}/mcp`)));
  t.teardown(() => client.close());

  t.test('should list the tools and search the docs with ranked URLs and snippets', async (t) => {
    const tools = await client.listTools();
    t.same(tools.tools.map((x) => x.name), ['search_docs', 'get_page']);
    const found = await client.callTool({ name: 'search_docs', arguments: { query: 'rate limit per key', limit: 3 } });
    const results = (found.structuredContent as any).results;
    t.same(results[0], { title: 'API reference', section: 'Rate limits', url: `${origin}/reference/api#rate-limits`, path: '/reference/api#rate-limits', snippet: '600 requests per minute per key. ![Launch pad](/images/launch-pad.svg) *Launch pad layout*' });
    t.ok(results.length <= 3);
    t.match((found.content as any)[0].text, `1. API reference › Rate limits\n   ${origin}/reference/api#rate-limits`);
    t.same(f.usage.filter((u) => u.kind === 'mcp_read').map((u: any) => u.what), ['search_docs']);
  });

  t.test('should return a page\'s Markdown export by path or URL, and an error for none', async (t) => {
    const byPath = await client.callTool({ name: 'get_page', arguments: { path: '/reference/api' } });
    t.match((byPath.content as any)[0].text, /^# API reference\n\nEndpoints, authentication and rate limits of the Acme API\./);
    const byUrl = await client.callTool({ name: 'get_page', arguments: { path: `${origin}/guides/launch-checklist#note-to-ai-assistants` } });
    t.match((byUrl.content as any)[0].text, '# Launch checklist');
    t.notMatch((byUrl.content as any)[0].text, HUMANS_ONLY);
    const missing = await client.callTool({ name: 'get_page', arguments: { path: '/nope' } });
    t.same([missing.isError, missing.content], [true, [{ type: 'text', text: 'No page at /nope; search_docs lists the pages that exist.' }]]);
    const escape = await client.callTool({ name: 'get_page', arguments: { path: '/../../_folio/manifest' } });
    t.equal(escape.isError, true);
  });

  t.test('should offer llms.txt and every page as resources', async (t) => {
    const list = await client.listResources();
    const uris = list.resources.map((r) => r.uri);
    t.equal(uris[0], `${origin}/llms.txt`);
    t.ok(uris.includes(`${origin}/index.md`) && uris.includes(`${origin}/reference/api.md`) && uris.includes(`${origin}/guides/launch-checklist.md`));
    t.equal(uris.length, 1 + 15, 'llms.txt, the 10 written pages and the 5 API reference pages');
    const llms = await client.readResource({ uri: `${origin}/llms.txt` });
    t.match((llms.contents[0] as any).text, /^# Acme Rockets\n/);
    const page = await client.readResource({ uri: `${origin}/reference/glossary.md` });
    t.same([page.contents[0].mimeType, (page.contents[0] as any).text.split('\n')[0]], ['text/markdown', '# Glossary']);
  });

  t.test('should answer 402 plan_required without the mcp_server feature, and 405 to GET', async (t) => {
    const get = await fetch(`${f.site.url}/mcp`);
    t.same([get.status, get.headers.get('allow'), await get.json()], [405, 'POST', { error: 'method_not_allowed', message: 'Unexpected method GET; this path takes POST' }]);
    // Every plan has mcp_server today; a plan table where it starts at Pro shows the gate.
    const minimum = BOOLEAN_FEATURES.mcp_server;
    BOOLEAN_FEATURES.mcp_server = 'pro';
    t.teardown(() => { BOOLEAN_FEATURES.mcp_server = minimum; });
    const res = await f.post(acme.slug, '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { headers: { accept: 'application/json, text/event-stream' } });
    t.same([res.status, res.json], [402, { error: 'plan_required', message: 'The MCP server feature needs the Pro plan or higher', upgrade_url: 'https://folio.dev/pricing' }]);
    BOOLEAN_FEATURES.mcp_server = minimum;
    const ok = await f.post(acme.slug, '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { headers: { accept: 'application/json, text/event-stream' } });
    t.equal(ok.status, 200);
  });
});
