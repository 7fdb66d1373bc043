import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildClientAssets, render404, renderPage, TEMPLATE_VERSION } from '@folio/site-template';
import type { ClientAssets, NavItem } from '@folio/site-template/shared/types.ts';
import type { ResolvedConfig } from './config/parse-config.ts';
import type { RepoSnapshot } from './git/repo-snapshot.ts';
import { buildNav } from './nav/build-nav.ts';
import { prevNextByPath } from './nav/prev-next.ts';
import type { Publisher } from './publish.ts';
import type { CompiledPage } from './types.ts';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** Object keys of one page: `/guides/install` → `guides/install/index.html`, `guides/install.md`. */
export function pageKeys(urlPath: string): { html: string; markdown: string } {
  const base = urlPath === '/' ? 'index' : urlPath.slice(1);
  return { html: urlPath === '/' ? 'index.html' : `${base}/index.html`, markdown: `${base}.md` };
}

/** What rendering shells needs besides the pages. */
export interface RenderContext {
  config: ResolvedConfig;
  configHash: string;
  /** Source path → cache key, which identifies the compiled body. */
  cacheKeys: Map<string, string>;
  /** Previous build's object key → input hash. */
  previousInputs: Record<string, string>;
  publisher: Publisher;
  year: number;
  /** Called between pages so a build over its time limit stops. */
  tick(): void;
}

/**
 * Renders every page shell, the 404 page and the client assets, skipping shells whose inputs
 * (page body, configuration, sidebar, neighbours, template) are unchanged since the last publish:
 * an edit to one page's body renders one shell, a sidebar change renders them all. Returns the
 * new input hashes and the number of shells rendered.
 */
export async function renderSite(pages: CompiledPage[], ctx: RenderContext): Promise<{ inputs: Record<string, string>; rendered: number; nav: NavItem[] }> {
  const { config, publisher } = ctx;
  const inputs: Record<string, string> = {};
  const assets = await clientAssets(publisher);
  const nav = buildNav(pages, config);
  const neighbours = prevNextByPath(nav);
  const siteHash = sha(JSON.stringify([TEMPLATE_VERSION, ctx.configHash, config.siteUrl, config.basePath, assets, nav, ctx.year]));
  let rendered = 0;
  for (const page of pages) {
    ctx.tick();
    const { prev, next } = neighbours.get(page.urlPath) ?? {};
    const key = pageKeys(page.urlPath).html;
    inputs[key] = sha(JSON.stringify([siteHash, ctx.cacheKeys.get(page.sourcePath), page.urlPath, prev, next]));
    if (ctx.previousInputs[key] === inputs[key] && publisher.keep(key)) continue;
    const html = renderPage({
      site: config, nav, prev, next, assets, searchBase: '/_pagefind/', year: ctx.year,
      page: {
        path: page.urlPath, title: page.title, description: page.description, bodyHtml: page.bodyHtml, toc: page.toc,
        rss: page.rss, seo: page.seo, markdownPath: `/${pageKeys(page.urlPath).markdown}`,
        feedPath: page.urlPath === '/' ? '/rss.xml' : `${page.urlPath}/rss.xml`,
      },
    });
    await publisher.emit(key, html);
    rendered++;
  }
  inputs['404.html'] = siteHash;
  if (!(ctx.previousInputs['404.html'] === siteHash && publisher.keep('404.html'))) {
    await publisher.emit('404.html', render404({ site: config, nav, assets, searchBase: '/_pagefind/', year: ctx.year }));
  }
  return { inputs, rendered, nav };
}

/** Builds (once per template version, cached on disk) and publishes the template's client bundle. */
async function clientAssets(publisher: Publisher): Promise<ClientAssets> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-assets-'));
  try {
    const { assets, files } = await buildClientAssets(out);
    for (const file of files) {
      const key = `_folio/${file}`;
      if (!publisher.keep(key)) await publisher.emit(key, await fs.promises.readFile(path.join(out, '_folio', file)));
    }
    return assets;
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/** Publishes the repository's `public/` folder at the site root. */
export async function publishPublicFiles(snapshot: RepoSnapshot, publisher: Publisher, previousFiles: Record<string, string>): Promise<void> {
  for (const [repoPath, oid] of snapshot.files) {
    if (!repoPath.startsWith('public/')) continue;
    const key = repoPath.slice('public/'.length);
    // Same blob as last publish: the object is already up, no need to read it.
    if (previousFiles[repoPath] === oid && publisher.keep(key)) continue;
    await publisher.emit(key, await snapshot.read(repoPath));
  }
}
