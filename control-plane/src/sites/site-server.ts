/**
 * The site server: the CDN's part on one machine. A request's Host picks the project
 * (`{slug}.{SITES_DOMAIN}`, or a custom domain) or one of its branch previews
 * (`{slug}--{label}.{SITES_DOMAIN}`), and only that site's prefix of the object store is read,
 * so no host can reach another project's files. It applies the redirects
 * manifest, clean URLs, `Accept: text/markdown`, the 404 page, and the content types and cache
 * headers the builder decided for each key. Since a failed build never writes the manifest or
 * moves objects the published site references, what is served stays as it was.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cacheControlFor, candidateKeys, contentTypeFor, matchRedirect, REVALIDATE, wantsMarkdown, type ObjectStore, type RedirectRule } from '@folio/builder';
import type { Models } from '../db/models/index.ts';
import { listen } from '../http/listen.ts';
import { PREVIEW_ROBOTS_HEADER, PREVIEW_ROBOTS_TXT } from './preview-page.ts';
import { decorationFor } from './decorate-page.ts';
import type { SiteBranding } from './site-branding.ts';
import { previewSitePrefix, sitePrefix } from './bucket-prefixes.ts';
import { PRIVATE_CACHE } from './password-gate.ts';
import type { AccessGate } from './reader-auth/reader-gate.ts';
import { normalizeHost, siteForHost, type HostSite } from './host-project.ts';
import { siteUrlFrom } from './site-url.ts';
import { siteHeadersReader } from './site-headers.ts';
import { ifNoneMatch } from './if-none-match.ts';

export interface SiteServerOptions {
  m: Models;
  store: ObjectStore;
  sitesDomain: string;
  /**
   * How production URLs are formed (the preview banner links there); default
   * `http://{slug}.{sitesDomain}`. A function is read at each use (the platform learns its
   * ephemeral port only once this server listens).
   */
  siteUrlTemplate?: string | (() => string);
  host: string;
  port: number;
  /**
   * Runs first for every request of a site host (the site password, reader authentication): it
   * may answer itself, mark the response private (no shared cache may keep it), or name the
   * audiences a signed-in reader reads (reader-auth/reader-gate.ts).
   */
  gate?: AccessGate;
  /** Extra routes answered on every site host before files (e.g. the feedback beacon). */
  handle?(req: http.IncomingMessage, res: http.ServerResponse, projectId: string): Promise<boolean>;
  /**
   * Called once a file of a project's site was answered (200 or 304, GET only, not the 404 page),
   * after the response is handed to the socket; it must not throw or wait (analytics buffers).
   */
  onServed?(req: http.IncomingMessage, url: URL, projectId: string, key: string): void;
  /** Whether a project's site shows the "Powered by Folio" badge (site-branding.ts); default never. */
  branding?: SiteBranding;
  /**
   * Runs first on the plain-HTTP listener only, before any site: ACME's HTTP-01 challenges and the
   * redirect to HTTPS of a host with a certificate (domains/http-challenge.ts). True when it answered.
   */
  beforeSites?(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean>;
  /** Files served on every host at a fixed path (e.g. `/docs.schema.json`). */
  globalFiles?: Record<string, { body: Buffer; contentType: string }>;
}

export interface SiteServer {
  port: number;
  url: string;
  /** The sites' request handler without `beforeSites`, for the HTTPS listener (domains/https-listener.ts). */
  handle: http.RequestListener;
  close(): Promise<void>;
}

const TTL_MS = 2_000;
/** The policy every SVG is served with: no script, no fetches, inline styles only. */
export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'";

export async function startSiteServer(opts: SiteServerOptions): Promise<SiteServer> {
  const sites = new Map<string, { site: HostSite | undefined; at: number }>();
  const urlTemplate = () => (typeof opts.siteUrlTemplate === 'function' ? opts.siteUrlTemplate() : opts.siteUrlTemplate ?? `http://{slug}.${opts.sitesDomain}`);
  const redirects = new Map<string, { etag: string; rules: RedirectRule[] }>();
  const htmlHeaders = siteHeadersReader(opts.store);

  async function siteFor(hostHeader: string | undefined): Promise<HostSite | undefined> {
    const host = normalizeHost(hostHeader);
    const hit = sites.get(host);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.site;
    const site = await siteForHost(opts.m, opts.sitesDomain, host);
    sites.set(host, { site, at: Date.now() });
    return site;
  }

  async function rulesFor(prefix: string): Promise<RedirectRule[]> {
    const head = await opts.store.head(`${prefix}_redirects.json`);
    if (!head) return [];
    const cached = redirects.get(prefix);
    if (cached && cached.etag === head.etag) return cached.rules;
    const bytes = await opts.store.get(`${prefix}_redirects.json`);
    let rules: RedirectRule[];
    try { rules = JSON.parse(Buffer.from(bytes ?? []).toString('utf8')); } catch { rules = []; }
    redirects.set(prefix, { etag: head.etag, rules });
    return rules;
  }

  async function send(req: http.IncomingMessage, res: http.ServerResponse, key: string, prefix: string, status = 200, isPrivate = false, preview?: HostSite['preview'], branded = false): Promise<boolean> {
    const head = await opts.store.head(prefix + key);
    if (!head) return false;
    const type = contentTypeFor(key);
    // A preview's noindex and banner, and the badge of a branded site, are added here, not in the build (decorate-page.ts).
    const decoration = decorationFor(key, type, {
      branded, preview: preview && { branch: preview.branch, productionUrl: siteUrlFrom(urlTemplate(), { slug: preview.slug, custom_domain: preview.customDomain }) },
    });
    const etag = `"${head.etag.replace(/"/g, '')}${decoration?.etagSuffix ?? ''}"`;
    res.setHeader('Content-Type', type);
    // An SVG opened as a document could run script or load what it names: uploads are sanitised,
    // and this policy blocks whatever remains (and anything a repository's own SVGs carry).
    if (type.startsWith('image/svg+xml')) res.setHeader('Content-Security-Policy', SVG_CSP);
    // Pages get the headers their build wrote: the site's Content-Security-Policy (site-headers.ts).
    if (type.startsWith('text/html')) for (const [name, value] of Object.entries(await htmlHeaders(prefix))) res.setHeader(name, value);
    // Decided from the key at each request, not read from the object: a site published under an
    // older policy is served under the current one without being republished.
    res.setHeader('Cache-Control', isPrivate ? PRIVATE_CACHE : status === 200 ? cacheControlFor(key) : REVALIDATE);
    res.setHeader('ETag', etag);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // A page's path answers HTML or, to `Accept: text/markdown`, its export: both name the header.
    const negotiated = key.endsWith('.md') || type.startsWith('text/html');
    if (isPrivate) res.setHeader('Vary', negotiated ? 'Accept, Cookie' : 'Cookie');
    else if (negotiated) res.setHeader('Vary', 'Accept');
    // Only a file that exists is compared: a 404 is never answered 304 (RFC 9110 §13.2.1).
    if (status === 200 && ifNoneMatch(req.headers['if-none-match'], etag)) { res.removeHeader('Content-Type'); res.statusCode = 304; res.end(); return true; }
    const stored = await opts.store.get(prefix + key);
    if (stored === undefined) return false;
    const bytes = decoration ? decoration.apply(stored) : stored;
    res.statusCode = status;
    res.setHeader('Content-Length', bytes.byteLength);
    // Sent as they are: a copy per request cost a large file's size in memory each time.
    res.end(req.method === 'HEAD' ? undefined : bytes);
    return true;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://site');
      const global = opts.globalFiles?.[url.pathname];
      if (global) { res.setHeader('Content-Type', global.contentType); res.end(global.body); return; }
      const site = await siteFor(req.headers.host);
      const projectId = site?.projectId;
      const preview = site?.preview;
      // Every response of a preview host, the password form and 404s included, keeps crawlers out.
      if (preview) res.setHeader('X-Robots-Tag', PREVIEW_ROBOTS_HEADER);
      if (!projectId) { res.statusCode = 404; res.setHeader('Content-Type', 'text/plain; charset=utf-8'); res.end('No site is published at this address.\n'); return; }
      const access = opts.gate ? await opts.gate(req, res, projectId) : 'open';
      if (access === 'answered') return;
      const isPrivate = access === 'private' || (typeof access === 'object' && access.signedIn);
      // The assistant, MCP and analytics answer for production only: a preview is not a published site.
      if (!preview && opts.handle && await opts.handle(req, res, projectId)) return;
      if (req.method !== 'GET' && req.method !== 'HEAD') { res.statusCode = 405; res.setHeader('Allow', 'GET, HEAD'); res.end(); return; }
      if (preview && url.pathname === '/robots.txt') {
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.setHeader('Cache-Control', isPrivate ? PRIVATE_CACHE : REVALIDATE);
        res.end(req.method === 'HEAD' ? undefined : PREVIEW_ROBOTS_TXT);
        return;
      }
      const prefix = preview ? previewSitePrefix(projectId, preview.label) : sitePrefix(projectId);
      // A reader's audiences first (each a whole site of the pages they may read), then the public site.
      const layers = typeof access === 'object' ? [...access.audiences.map((a) => prefix + a), prefix] : [prefix];
      const rule = matchRedirect(await rulesFor(layers[0]), url.pathname);
      if (rule) {
        // Asked again every time (a 308 is otherwise kept indefinitely): a deploy may change or drop the rule.
        res.statusCode = rule.status;
        res.setHeader('Cache-Control', isPrivate ? PRIVATE_CACHE : REVALIDATE);
        res.setHeader('Location', rule.destination + url.search);
        res.end();
        return;
      }
      const keys = candidateKeys(url.pathname, wantsMarkdown(req.headers.accept));
      const branded = opts.branding ? await opts.branding(projectId) : false;
      for (const key of keys ?? []) {
        let sent = false;
        for (const layer of layers) if (!sent) sent = await send(req, res, key, layer, 200, isPrivate, preview, branded);
        if (!sent) continue;
        if (req.method === 'GET' && !preview) opts.onServed?.(req, url, projectId, key);
        return;
      }
      if (typeof access === 'object' && access.onMiss) { access.onMiss(req, res); return; }
      if (await send(req, res, '404.html', layers[0], 404, isPrivate, preview, branded)) return;
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('Not found\n');
    } catch {
      if (!res.headersSent) { res.statusCode = 500; res.setHeader('Content-Type', 'text/plain; charset=utf-8'); }
      res.end('Internal error\n');
    }
  }
  const server = http.createServer(async (req, res) => {
    try {
      if (opts.beforeSites && await opts.beforeSites(req, res)) return;
    } catch {
      if (!res.headersSent) { res.statusCode = 500; res.setHeader('Content-Type', 'text/plain; charset=utf-8'); }
      res.end('Internal error\n');
      return;
    }
    await handle(req, res);
  });
  await listen(server, opts.port, opts.host, 'SITE_PORT');
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://${opts.host}:${port}`,
    handle: (req, res) => void handle(req, res),
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
