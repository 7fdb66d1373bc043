import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { DEFAULT_CONTENT_SECURITY_POLICY } from '../../src/node/content-security-policy.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.md': 'text/markdown; charset=utf-8', '.xml': 'application/rss+xml', '.wasm': 'application/wasm', '.svg': 'image/svg+xml',
};

/** The policy in the site's `_headers.json` (written by the builder), else the default. */
async function policyOf(root: string): Promise<string> {
  const text = await readFile(join(root, '_headers.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return DEFAULT_CONTENT_SECURITY_POLICY;
  return (JSON.parse(text) as Record<string, string>)['Content-Security-Policy'] ?? DEFAULT_CONTENT_SECURITY_POLICY;
}

/** A running static server and its origin (http://127.0.0.1:port). */
export interface StaticServer { origin: string; server: Server; close(): Promise<void>; beacons: string[] }

/**
 * Serves `root` on 127.0.0.1 the way the site server does: clean URLs map to `<path>.html` or
 * `<path>/index.html`, and pages carry the site's Content-Security-Policy (the one its build wrote
 * in `_headers.json`, else the default), so every browser test runs under it. POSTs are recorded
 * in `beacons` and answered 404, like a site without the feedback endpoint.
 */
export async function serveStatic(root: string): Promise<StaticServer> {
  const beacons: string[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      beacons.push(`${url.pathname} ${Buffer.concat(chunks).toString()}`);
      res.writeHead(404).end();
      return;
    }
    const path = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
    for (const candidate of [path, `${path}.html`, join(path, 'index.html')]) {
      const file = join(root, candidate);
      const info = await stat(file).catch(() => undefined);
      if (info?.isFile()) {
        const type = TYPES[extname(file)] ?? 'application/octet-stream';
        const csp = type.startsWith('text/html') ? await policyOf(root) : undefined;
        res.writeHead(200, { 'content-type': type, ...(csp ? { 'content-security-policy': csp } : {}) });
        res.end(await readFile(file));
        return;
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    server,
    beacons,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
