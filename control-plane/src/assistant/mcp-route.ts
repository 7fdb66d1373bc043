/**
 * `/mcp` on every site host: a Model Context Protocol server (Streamable HTTP, stateless: every
 * POST is answered on its own, no session) over that site's published pages, with the official
 * SDK. Tools: `search_docs` (query → ranked sections with URLs and snippets) and `get_page`
 * (path → the page's Markdown export). Resources: `llms.txt` and every page's Markdown export,
 * at the same absolute URLs the site publishes them under. Needs the plan feature `mcp_server`
 * (402 `plan_required` otherwise). Reads are reported to the usage sink as AI traffic.
 *
 * Batches. MCP 2025-03-26 let a client send a JSON-RPC batch (an array of messages) in one POST;
 * 2025-06-18 removed batching. Bounded batches are still accepted, so older clients keep
 * working, but a batch costs what its messages cost: every message counts against the visitor's
 * per-minute calls (`mcpCallsPerMinute`, 300), a batch of more than `mcpBatch` (20) messages is
 * refused whole with one JSON-RPC error (HTTP 400, code -32600, nothing run or counted), and the
 * bytes are bounded: `get_page` and resource reads return at most `mcpPageBytes` (256 KB) of a
 * page, with a note giving the `offset` of the next part, and all the calls of one response
 * together at most `mcpResponseBytes` (4 MB) of page text; a call past that budget answers an
 * error telling the client to ask again in another request.
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
import { VisitorRate } from '../http/visitor-rate.ts';
import { DEFAULT_ABUSE_LIMITS, type AbuseLimits } from './abuse-limits.ts';
import { conversationQuery } from './bm25-index.ts';
import type { SitePage } from './sections.ts';
import { sitePrefix } from '../sites/bucket-prefixes.ts';
import { methodNotAllowed, readJsonBody, sendError, sendJson } from './site-http.ts';
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
  /** `mcpCallsPerMinute`, `mcpBatch`, `mcpPageBytes`, `mcpResponseBytes`; defaults in abuse-limits.ts. */
  limits?: Partial<McpLimits>;
  visitorOf?(req: http.IncomingMessage): string;
}

export type McpLimits = Pick<AbuseLimits, 'mcpCallsPerMinute' | 'mcpBatch' | 'mcpPageBytes' | 'mcpResponseBytes'>;

/** Bytes of page text the calls of one response have used, against `mcpResponseBytes`. */
interface ResponseBudget { used: number }

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/**
 * The part of `text` that starts at byte `offset` and holds at most `maxBytes` bytes (never a
 * split character), with a note saying how to ask for the next part when more follows.
 */
export function pagePart(text: string, offset: number, maxBytes: number, path: string): { text: string; bytes: number } {
  const all = Buffer.from(text, 'utf8');
  let start = Math.min(offset, all.length);
  while (start < all.length && (all[start] & 0xc0) === 0x80) start++;
  let end = Math.min(all.length, start + maxBytes);
  while (end < all.length && end > start && (all[end] & 0xc0) === 0x80) end--;
  const part = all.subarray(start, end).toString('utf8');
  if (start === 0 && end === all.length) return { text: part, bytes: end - start };
  const note = end < all.length
    ? `\n\n[Part of a longer page: bytes ${start}-${end - 1} of ${all.length}. Call get_page with {"path": ${JSON.stringify(path)}, "offset": ${end}} for the next part.]`
    : `\n\n[Last part of the page: bytes ${start}-${Math.max(start, end - 1)} of ${all.length}.]`;
  return { text: part + note, bytes: end - start };
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
function siteServer(opts: McpOptions, limits: McpLimits, budget: ResponseBudget, projectId: string, content: SiteContent | undefined, report: (e: McpRead) => void): McpServer {
  const prefix = sitePrefix(projectId);
  const server = new McpServer({ name: content?.name ?? 'docs', version: '1.0.0' }, {
    instructions: `Documentation of ${content?.name ?? 'this site'}. Use search_docs to find sections, then get_page for a page's full Markdown.`,
  });
  const readText = async (key: string) => {
    const bytes = await opts.store.get(prefix + key);
    return bytes ? Buffer.from(bytes).toString('utf8') : undefined;
  };
  const budgetLeft = () => limits.mcpResponseBytes - budget.used;
  const overBudget = `This response already carries ${kb(limits.mcpResponseBytes)} of page text, the most one response may; ask for this page again in another request.`;
  /** The part of a page this call may return, counted against the response's budget; undefined when the budget is spent. */
  const partOf = (text: string, offset: number, path: string) => {
    const room = Math.min(limits.mcpPageBytes, budgetLeft());
    if (room < 4) return undefined; // not even one character of any size

    const part = pagePart(text, offset, room, path);
    budget.used += part.bytes;
    return part.text;
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
    description: `Returns one page of the docs as Markdown. \`path\` is the page path (\`/guides/install\`) or its URL, as search_docs gives it. A page longer than ${kb(limits.mcpPageBytes)} comes in parts: the note at the end of a part gives the \`offset\` of the next.`,
    inputSchema: {
      path: z.string().min(1).max(1000).describe('Page path or URL'),
      offset: z.number().int().min(0).optional().describe('Byte offset of the part to return, from the note at the end of the previous part (default 0)'),
    },
  }, async ({ path, offset }) => {
    const key = markdownKeyOf(path);
    const text = key ? await readText(key) : undefined;
    report({ kind: 'mcp_read', what: 'get_page', path: key ? `/${key}` : undefined });
    if (text === undefined) return { isError: true, content: [{ type: 'text', text: `No page at ${path}; search_docs lists the pages that exist.` }] };
    const part = partOf(text, offset ?? 0, path);
    if (part === undefined) return { isError: true, content: [{ type: 'text', text: overBudget }] };
    return { content: [{ type: 'text', text: part }] };
  });

  const origin = content?.index.pages[0] ? new URL(content.index.pages[0].url).origin : 'https://docs.invalid';
  server.registerResource('llms.txt', `${origin}/llms.txt`, { title: 'llms.txt', description: 'Index of every page, for LLMs', mimeType: 'text/plain' }, async (uri) => {
    report({ kind: 'mcp_read', what: 'resource', path: '/llms.txt' });
    const text = await readText('llms.txt');
    if (text === undefined) throw notFound('llms.txt');
    const part = partOf(text, 0, '/llms.txt');
    if (part === undefined) throw new Error(overBudget);
    return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: part }] };
  });
  server.registerResource('page', new ResourceTemplate(`${origin}/{+path}.md`, {
    list: async () => {
      const resources = (content?.index.pages ?? []).map((page) => ({ uri: markdownUrl(page), name: page.path, title: page.title, description: page.description || undefined, mimeType: 'text/markdown' }));
      // The list of a large site is counted against the same budget as page text (a batch of lists is no way around it).
      const bytes = Buffer.byteLength(JSON.stringify(resources));
      if (bytes > budgetLeft()) throw new Error(overBudget.replace('ask for this page again', 'list the resources again'));
      budget.used += bytes;
      return { resources };
    },
  }), { title: 'Page', description: 'A page of the docs as Markdown', mimeType: 'text/markdown' }, async (uri) => {
    const key = markdownKeyOf(uri.pathname);
    report({ kind: 'mcp_read', what: 'resource', path: key ? `/${key}` : undefined });
    const text = key ? await readText(key) : undefined;
    if (text === undefined) throw notFound(`page ${uri.pathname}`);
    const part = partOf(text, 0, uri.pathname.replace(/\.md$/, ''));
    if (part === undefined) throw new Error(overBudget);
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: part }] };
  });
  return server;
}

/** The handler the site server calls for every request on a site host; true when it answered. */
export function mcpHandler(opts: McpOptions): (req: http.IncomingMessage, res: http.ServerResponse, projectId: string) => Promise<boolean> {
  const usage = opts.usage ?? noUsageSink;
  const now = opts.now ?? (() => new Date());
  const limits: McpLimits = { ...DEFAULT_ABUSE_LIMITS, ...opts.limits };
  const rate = new VisitorRate({ visitorMessages: limits.mcpCallsPerMinute, visitorWindowMs: 60_000 });
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
      const body = await readJsonBody(req, 1024 * 1024, 10_000);
      const messages = Array.isArray(body) ? body.length : 1;
      if (messages > limits.mcpBatch) {
        // Refused whole, before anything runs or counts (see the module comment).
        sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Unexpected batch of ${messages} messages; expected at most ${limits.mcpBatch} in one request (MCP 2025-06-18 has no batches: send one message per request)` } });
        return true;
      }
      rate.take(`${projectId}\0${visitorOf(req)}`, now().getTime(), Math.max(1, messages));
      const content = await opts.sites.get(projectId);
      const userAgent = req.headers['user-agent'];
      const server = siteServer(opts, limits, { used: 0 }, projectId, content, (e) => record(usage, { ...e, projectId, at: now(), userAgent, req }));
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
