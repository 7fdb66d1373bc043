/**
 * `/mcp` on every site host: a Model Context Protocol server (Streamable HTTP, stateless: every
 * POST is answered on its own, no session) over that site's published pages, with the official
 * SDK. Tools: `search_docs` (query → ranked sections with URLs and snippets) and `get_page`
 * (path → the page's Markdown export). Resources: `llms.txt` and every page's Markdown export,
 * at the same absolute URLs the site publishes them under. Needs the plan feature `mcp_server`
 * (402 `plan_required` otherwise). Reads are reported to the usage sink as AI traffic.
 */
import type http from 'node:http';
import type { ObjectStore } from '@folio/builder';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import type { Models } from '../db/models/index.ts';
import { requireFeature } from '../entitlements/resolver.ts';
import { notFound } from '../errors.ts';
import { candidateKeys } from '@folio/builder';
import { VisitorRate } from './abuse-limits.ts';
import { conversationQuery } from './bm25-index.ts';
import type { SitePage } from './sections.ts';
import { sitePrefix } from '../sites/bucket-prefixes.ts';
import { methodNotAllowed, readJsonBody, sendError } from './site-http.ts';
import type { SiteContent, SiteIndex } from './site-index.ts';
import { noUsageSink, record, type McpRead, type UsageSink } from './usage-sink.ts';

export const MCP_PATH = '/mcp';

export interface McpOptions {
  m: Models;
  store: ObjectStore;
  sites: SiteIndex;
  /** Link carried by `plan_required`. */
  upgradeUrl: string;
  usage?: UsageSink;
  now?: () => Date;
  /** Requests one client may make to one site per minute. Default 300. */
  perMinute?: number;
  visitorOf?(req: http.IncomingMessage): string;
}

const SNIPPET_CHARS = 300;

/** The absolute URL of a page's Markdown export (what llms.txt links to). */
export function markdownUrl(page: SitePage): string {
  const url = new URL(page.url);
  url.pathname = url.pathname === '/' ? '/index.md' : `${url.pathname.replace(/\/+$/, '')}.md`;
  url.hash = '';
  return url.href;
}

/** The object key of the Markdown export a page path (`/guides/install`, `guides/install.md`, a full URL) names, or undefined. */
export function markdownKeyOf(input: string): string | undefined {
  let path = input.trim();
  try { if (/^https?:\/\//i.test(path)) path = new URL(path).pathname; } catch { return undefined; }
  path = path.replace(/[#?].*$/, '').replace(/\.md$/, '');
  if (!path.startsWith('/')) path = `/${path}`;
  if (path === '/index') path = '/';
  return candidateKeys(path, true)?.[0];
}

function snippet(text: string): string {
  const flat = text.replace(/```[\s\S]*?```/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS).replace(/\s+\S*$/, '')} …` : flat;
}

/** One MCP server for one request to one site. */
function siteServer(opts: McpOptions, projectId: string, content: SiteContent | undefined, report: (e: McpRead) => void): McpServer {
  const prefix = sitePrefix(projectId);
  const server = new McpServer({ name: content?.name ?? 'docs', version: '1.0.0' }, {
    instructions: `Documentation of ${content?.name ?? 'this site'}. Use search_docs to find sections, then get_page for a page's full Markdown.`,
  });
  const readText = async (key: string) => {
    const bytes = await opts.store.get(prefix + key);
    return bytes ? Buffer.from(bytes).toString('utf8') : undefined;
  };

  server.registerTool('search_docs', {
    title: 'Search the docs',
    description: `Searches ${content?.name ?? 'these docs'} and returns the best-matching sections, best first, with their URLs and snippets.`,
    inputSchema: { query: z.string().min(1).max(500).describe('What to look for, in words'), limit: z.number().int().min(1).max(20).optional().describe('How many results (default 5)') },
    outputSchema: { results: z.array(z.object({ title: z.string(), section: z.string().nullable(), url: z.string(), path: z.string(), snippet: z.string() })) },
  }, async ({ query, limit }) => {
    report({ kind: 'mcp_read', what: 'search_docs' });
    const hits = content ? content.index.search(conversationQuery([query]), limit ?? 5) : [];
    const results = await Promise.all(hits.map(async (hit) => {
      const passage = content!.index.passages[hit.passage];
      const page = content!.index.pages[passage.page];
      const path = await content!.sectionPath(hit.passage);
      return { title: page.title, section: passage.heading ?? null, url: new URL(path, page.url).href, path, snippet: snippet(passage.text) };
    }));
    const text = results.length
      ? results.map((r, i) => `${i + 1}. ${r.title}${r.section ? ` › ${r.section}` : ''}\n   ${r.url}\n   ${r.snippet}`).join('\n\n')
      : 'No section of these docs matches that query.';
    return { content: [{ type: 'text', text }], structuredContent: { results } };
  });

  server.registerTool('get_page', {
    title: 'Read a page',
    description: 'Returns one page of the docs as Markdown. `path` is the page path (`/guides/install`) or its URL, as search_docs gives it.',
    inputSchema: { path: z.string().min(1).max(1000).describe('Page path or URL') },
  }, async ({ path }) => {
    const key = markdownKeyOf(path);
    const text = key ? await readText(key) : undefined;
    report({ kind: 'mcp_read', what: 'get_page', path: key ? `/${key}` : undefined });
    if (text === undefined) return { isError: true, content: [{ type: 'text', text: `No page at ${path}; search_docs lists the pages that exist.` }] };
    return { content: [{ type: 'text', text }] };
  });

  const origin = content?.index.pages[0] ? new URL(content.index.pages[0].url).origin : 'https://docs.invalid';
  server.registerResource('llms.txt', `${origin}/llms.txt`, { title: 'llms.txt', description: 'Index of every page, for LLMs', mimeType: 'text/plain' }, async (uri) => {
    report({ kind: 'mcp_read', what: 'resource', path: '/llms.txt' });
    const text = await readText('llms.txt');
    if (text === undefined) throw notFound('llms.txt');
    return { contents: [{ uri: uri.href, mimeType: 'text/plain', text }] };
  });
  server.registerResource('page', new ResourceTemplate(`${origin}/{+path}.md`, {
    list: async () => ({
      resources: (content?.index.pages ?? []).map((page) => ({ uri: markdownUrl(page), name: page.path, title: page.title, description: page.description || undefined, mimeType: 'text/markdown' })),
    }),
  }), { title: 'Page', description: 'A page of the docs as Markdown', mimeType: 'text/markdown' }, async (uri) => {
    const key = markdownKeyOf(uri.pathname);
    report({ kind: 'mcp_read', what: 'resource', path: key ? `/${key}` : undefined });
    const text = key ? await readText(key) : undefined;
    if (text === undefined) throw notFound(`page ${uri.pathname}`);
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
  });
  return server;
}

/** The handler the site server calls for every request on a site host; true when it answered. */
export function mcpHandler(opts: McpOptions): (req: http.IncomingMessage, res: http.ServerResponse, projectId: string) => Promise<boolean> {
  const usage = opts.usage ?? noUsageSink;
  const now = opts.now ?? (() => new Date());
  const rate = new VisitorRate({ visitorMessages: opts.perMinute ?? 300, visitorWindowMs: 60_000 });
  const visitorOf = opts.visitorOf ?? ((req) => req.socket.remoteAddress ?? 'unknown');
  return async (req, res, projectId) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (path !== MCP_PATH && path !== `${MCP_PATH}/`) return false;
    try {
      const project = await opts.m.Project.findById(projectId, { org_id: 1 }).lean();
      if (!project) throw notFound('site');
      await requireFeature(opts.m, project.org_id, 'mcp_server', now(), opts.upgradeUrl);
      // Stateless: there is no stream to resume (GET) or session to end (DELETE).
      if (req.method !== 'POST') throw methodNotAllowed(req.method, 'POST');
      rate.take(`${projectId}\0${visitorOf(req)}`, now().getTime());
      const body = await readJsonBody(req, 1024 * 1024, 10_000);
      const content = await opts.sites.get(projectId);
      const userAgent = req.headers['user-agent'];
      const server = siteServer(opts, projectId, content, (e) => record(usage, { ...e, projectId, at: now(), userAgent, req }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => { void transport.close(); void server.close(); });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (err) {
      sendError(res, err);
    }
    return true;
  };
}
