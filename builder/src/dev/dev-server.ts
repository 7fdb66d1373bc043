import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { candidateKeys, matchRedirect, wantsMarkdown, type RedirectRule } from '../serve/resolve-path.ts';
import { contentTypeFor } from '../store/content-type.ts';
import { HEADERS_KEY, readSiteHeaders } from '../outputs/site-headers.ts';
import type { ObjectStore } from '../store/object-store.ts';
import type { DevEvent, DevSession } from './dev-session.ts';
import type { EarlyObject } from './early-answers.ts';

/** Options of `startDevServer`. */
export interface DevServerOptions {
  /** Makes the session once the server's address (the site URL for canonical links and feeds) is known. */
  session(siteUrl: string): DevSession;
  /** The store the session builds into. */
  store: ObjectStore;
  /** Interface to listen on; default `127.0.0.1` (the preview is for this machine). */
  host?: string;
  /** Port; default 0 (a free one). */
  port?: number;
}

/** A running dev server; `close` stops the server and its session. */
export interface DevServer { url: string; port: number; session: DevSession; close(): Promise<void> }

const CLIENT_PATH = '/_folio/dev/client.js';
const EVENTS_PATH = '/_folio/dev/events';
const CLIENT_JS = fs.readFileSync(new URL('./dev-client.js', import.meta.url));
const CLIENT_TAG = `<script type="module" src="${CLIENT_PATH}"></script>`;
/** The client of a page made before the first build: it asks for the built page once there is one. */
const EARLY_CLIENT_TAG = `<script type="module" src="${CLIENT_PATH}?early"></script>`;

/**
 * Serves the site a dev session builds the way the site server serves a published one: clean
 * URLs, `_redirects.json`, `.md` exports and `Accept: text/markdown`, `404.html`. Every HTML
 * answer carries the dev client script, which listens at `/_folio/dev/events` (server-sent
 * events) for updates, reloads and problems. Nothing is cached by the browser, and the
 * builder's own state (`_folio/manifest.json`, the page cache) is never served.
 *
 * The server listens before the first build has run, so the preview is ready at once. A site
 * request that comes before that build has finished is answered from the stored site when that
 * is the working tree's, else with what the session can make early (`session.early`: the page
 * asked for, compiled first, and what it needs to show), else it waits for the build
 * (`session.ready`) and is answered from the finished site: never a 404 for something that
 * exists, never a half-built file. A page made early carries the client as
 * `client.js?early`, which listens at `events?early=<key>` and so is told to fetch the page
 * again once the first build is done, even if it connects after that build's update went out.
 * The dev client's script and events are answered at once.
 */
export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const { store } = opts;
  const streams = new Set<http.ServerResponse>();
  // Made once the address is known; requests before that see no problems and wait for the site.
  const made: { session?: DevSession } = {};
  let sessionMade!: (session: DevSession) => void;
  const sessionReady = new Promise<DevSession>((resolve) => { sessionMade = resolve; });
  let built = false;
  const firstBuild = sessionReady.then((session) => session.ready).then(() => { built = true; });

  const send = async (req: http.IncomingMessage, res: http.ServerResponse, key: string, status = 200, early?: EarlyObject): Promise<boolean> => {
    const bytes = early?.bytes ?? await store.get(key);
    if (bytes === undefined) return false;
    const type = contentTypeFor(key);
    let body = Buffer.from(bytes);
    if (type.startsWith('text/html')) body = Buffer.from(body.toString('utf8').replace(/<\/body>/, `${early?.page ? EARLY_CLIENT_TAG : CLIENT_TAG}</body>`));
    // Pages get the published site's headers (its Content-Security-Policy), so what the policy blocks shows here first.
    const headers = type.startsWith('text/html') ? readSiteHeaders(await store.get(HEADERS_KEY)) : {};
    res.writeHead(status, { ...headers, 'Content-Type': type, 'Content-Length': body.byteLength, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };

  const redirects = async (): Promise<RedirectRule[]> => {
    const bytes = await store.get('_redirects.json');
    try { return bytes ? (JSON.parse(Buffer.from(bytes).toString('utf8')) as RedirectRule[]) : []; } catch { return []; }
  };

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://dev');
      if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405, { Allow: 'GET, HEAD' }).end(); return; }
      if (url.pathname === CLIENT_PATH) {
        res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' }).end(CLIENT_JS);
        return;
      }
      if (url.pathname === EVENTS_PATH) {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
        res.write(`retry: 500\nevent: problems\ndata: ${JSON.stringify({ type: 'problems', problems: made.session?.problems() ?? [] })}\n\n`);
        streams.add(res);
        req.on('close', () => streams.delete(res));
        // A page answered before the first build asks for itself again once that build is done,
        // even when it connects after the build's own update went out.
        const page = url.searchParams.get('early');
        if (page) void firstBuild.then(() => { if (streams.has(res)) res.write(`event: update\ndata: ${JSON.stringify({ type: 'update', keys: [page] })}\n\n`); });
        return;
      }
      const keys = candidateKeys(url.pathname, wantsMarkdown(req.headers.accept));
      if (!built) {
        // Before the first build: the stored site when it is this tree's, else what can be made
        // early (early-answers.ts); anything else waits for the build.
        const session = await sessionReady;
        if (!(await session.early.storeCurrent())) {
          for (const key of keys ?? []) {
            const early = built ? undefined : await session.early.object(key);
            if (early && await send(req, res, key, 200, early)) return;
          }
          await firstBuild;
        }
      }
      const rule = matchRedirect(await redirects(), url.pathname);
      if (rule) { res.writeHead(rule.status, { Location: rule.destination + url.search }).end(); return; }
      // The builder's state (manifest, page cache and summaries) is never served.
      for (const key of (keys ?? []).filter((k) => !k.startsWith('_folio/cache/') && !k.startsWith('_folio/manifest'))) {
        if (await send(req, res, key)) return;
      }
      if (await send(req, res, '404.html', 404)) return;
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found (no build has succeeded yet: see the problems in the terminal)\n');
    } catch {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal error\n');
    }
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve); });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${opts.host ?? '127.0.0.1'}:${port}`;
  const session = (made.session = opts.session(url));
  sessionMade(session);
  const unsubscribe = session.subscribe((event: DevEvent) => {
    const frame = `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    for (const res of streams) res.write(frame);
  });
  return {
    port,
    url,
    session,
    async close() {
      unsubscribe();
      for (const res of streams) res.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await session.close();
    },
  };
}
