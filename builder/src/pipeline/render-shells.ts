/**
 * Page shells: the site template around each page's body, rendered only where their inputs
 * changed since the last publish (the render step, see render.ts), and the template's client bundle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cachedClientAssets, TEMPLATE_VERSION } from '@folio/site-template';
import type { ClientAssets, NavItem } from '@folio/site-template/shared/types.ts';
import type { ResolvedConfig } from '../config/parse-config.ts';
import type { DimensionNav } from '../nav/dimension-nav.ts';
import { perSidebar } from '../nav/per-sidebar.ts';
import { prevNextByPath, type NavLink, type PrevNext } from '../nav/prev-next.ts';
import { NOT_FOUND_KEY, notFoundShell, pageContext, renderShell, type ShellContext, type ShellPage } from '../outputs/page-shells.ts';
import { htmlKey } from '../outputs/site-paths.ts';
import type { PageRecord } from '../state/page-bodies.ts';
import type { PageSummary } from '../state/page-summaries.ts';
import { sameJson } from '../cache/bucketed-map.ts';
import type { Publisher } from '../publish.ts';
import { sha256 } from '../sha256.ts';

/** Each sidebar's hash (hashing 10,000 entries' JSON per edit is not free). */
const navHash = perSidebar((nav) => sha256(JSON.stringify(nav)));

/**
 * Part of every shell's input hash: bump it when what the hash covers changes, so shells whose
 * previous hash is taken as it is (see `renderSite`) are not kept from a build that hashed less.
 */
const SHELL_INPUTS_VERSION = 'shell-inputs-2';

/** Shells whose bodies are loaded at once: bounds memory while keeping reads overlapped. */
const SHELL_BATCH = 64;

/** What rendering shells needs besides the pages. */
export interface RenderContext {
  config: ResolvedConfig;
  configHash: string;
  nav: NavItem[];
  /** Comma-separated search bundle bases (`searchBaseOf`). */
  searchBase: string;
  /** Previous build's object key → input hash. */
  previousInputs: Record<string, string>;
  /**
   * Whether `record` is what the previous build published at its URL (same cache key, imports and
   * URL): with the same site-wide inputs, its shell's input hash is then the previous one.
   */
  unchanged?(record: PageRecord): boolean;
  publisher: Publisher;
  year: number;
  /** The full page of a record (body and table of contents), read only for shells to render. */
  load(record: PageRecord): Promise<ShellPage>;
  /** Called before each batch of `shells` to render, so a build over its time limit stops. */
  tick(shells: number): void;
  /** Root-relative URL of the site's font stylesheet (fonts/site-fonts.ts). */
  fonts?: string;
  /** Root-relative URL of the site's utilities stylesheet, when its pages use Tailwind classes. */
  utilities?: string;
  /** Root-relative URL of the site's custom stylesheet (css/custom-css.ts), linked last. */
  custom?: string;
  /** URL path of a page → site path of its client module (outputs/island-bundle.ts). */
  islands?: ReadonlyMap<string, string>;
  /** Languages and versions: each page's sidebar, switchers and locale (see `nav/dimension-nav.ts`). */
  dimensions?: DimensionNav;
  /** Pages served by fallback in another language or version: the record shown, at `urlPath`. */
  fallbacks?: { record: PageRecord; urlPath: string }[];
  /** Receives the shared shell context once it is known (the dev server keeps it). */
  onShell?(shell: ShellContext, config: ResolvedConfig): void;
}

/**
 * Renders every page shell and the 404 page, skipping shells whose inputs (page cache key,
 * configuration, sidebar, search bases, neighbours, template, client assets) are unchanged
 * since the last publish: an edit to one page's body renders one shell, a sidebar change
 * renders them all. Bodies are loaded in batches, so a 10,000-page site never holds them all.
 * Returns the new input hashes, the keys whose hash is not the previous one, and the number of
 * shells rendered.
 */
export async function renderSite(records: readonly PageRecord[], ctx: RenderContext): Promise<{ inputs: Record<string, string>; changed: string[]; rendered: number }> {
  const { publisher } = ctx;
  const inputs: Record<string, string> = {};
  const changed: string[] = [];
  const assets = { ...(await clientAssets(publisher)), ...(ctx.fonts ? { fonts: ctx.fonts } : {}), ...(ctx.utilities ? { utilities: ctx.utilities } : {}), ...(ctx.custom ? { custom: ctx.custom } : {}) };
  const shell: ShellContext = { site: ctx.config, nav: ctx.nav, assets, searchBase: ctx.searchBase, year: ctx.year, ...(ctx.dimensions ? { dimensions: ctx.dimensions } : {}) };
  ctx.onShell?.(shell, ctx.config);
  const dims = ctx.dimensions;
  const siteHash = sha256(JSON.stringify([SHELL_INPUTS_VERSION, TEMPLATE_VERSION, ctx.configHash, ctx.config.siteUrl, ctx.config.basePath, assets, dims ? null : navHash(ctx.nav), ctx.searchBase, ctx.year]));
  const todo: { record: PageRecord; urlPath: string }[] = [];
  // Previous/next links follow the page's own sidebar (one per language and version), made once per sidebar (prev-next.ts).
  const shellOf = (urlPath: string): { shell: ShellContext; neighbours: PrevNext; extra: unknown } => {
    if (!dims) return { shell, neighbours: prevNextByPath(ctx.nav).get(urlPath) ?? {}, extra: null };
    const own = pageContext(shell, urlPath);
    return { shell: own, neighbours: prevNextByPath(own.nav).get(urlPath) ?? {}, extra: [navHash(own.nav), own.switchers, own.locale] };
  };
  const shellInputsFor = ({ record, urlPath }: { record: PageRecord; urlPath: string }) => {
    const { neighbours: { prev, next }, extra } = shellOf(urlPath);
    return shellInputsOf(record, urlPath, siteHash, prev, next, extra);
  };
  const all = [...records.map((record) => ({ record, urlPath: record.summary.urlPath })), ...(ctx.fallbacks ?? [])];
  // Without languages or versions, a shell reads nothing of the site but what `siteHash` covers
  // (its neighbours come from the sidebar, hashed in it): when that is the previous build's (the
  // 404 page's input), an unchanged page's shell has the previous input hash, taken as it is. A
  // build in a fresh process then hashes the edited pages' inputs, not 10,000 of them.
  const sameSite = !dims && ctx.unchanged !== undefined && ctx.previousInputs[NOT_FOUND_KEY] === siteHash;
  for (const item of all) {
    const { record, urlPath } = item;
    const key = htmlKey(urlPath);
    const before = Object.hasOwn(ctx.previousInputs, key) ? ctx.previousInputs[key] : undefined;
    const hash = sameSite && before !== undefined && ctx.unchanged!(record) ? before : shellInputsFor(item);
    inputs[key] = hash;
    if (before !== hash) changed.push(key);
    else if (publisher.keep(key)) continue;
    todo.push(item);
  }
  for (let i = 0; i < todo.length; i += SHELL_BATCH) {
    const batch = todo.slice(i, i + SHELL_BATCH);
    ctx.tick(batch.length);
    const pages = await Promise.all(batch.map(({ record }) => ctx.load(record)));
    for (const [j, loaded] of pages.entries()) {
      // A fallback shows its source's body at its own URL.
      const page = { ...loaded, urlPath: batch[j].urlPath };
      // A fallback's island is its source page's (the body shown is that page's).
      await publisher.emit(htmlKey(page.urlPath), renderShell(page, shell, ctx.islands?.get(loaded.urlPath)));
    }
  }
  inputs[NOT_FOUND_KEY] = siteHash;
  if (ctx.previousInputs[NOT_FOUND_KEY] !== siteHash) changed.push(NOT_FOUND_KEY);
  if (!(ctx.previousInputs[NOT_FOUND_KEY] === siteHash && publisher.keep(NOT_FOUND_KEY))) await publisher.emit(NOT_FOUND_KEY, notFoundShell(shell));
  return { inputs, changed, rendered: todo.length };
}

/** What one shell's input hash was made from, and the hash (see `shellInputsOf`). */
interface ShellInputs { siteHash: string; cacheKey: string; urlPath: string; prev?: NavLink; next?: NavLink; extra: unknown; inputs: string }

/**
 * Shell input hashes by page summary: a long-lived builder's next build gets the same frozen
 * summary objects for unchanged pages, so an edit compares a few strings per page instead of
 * serialising and hashing each page's inputs (~50 ms at 10,000 pages). A fallback (a summary
 * shown at another URL too) is hashed again when its URL is not the one remembered.
 */
const shellInputsMemo = new WeakMap<PageSummary, ShellInputs>();

/** The hash of everything the shell of `record` at `urlPath` reads besides its body. */
function shellInputsOf(record: PageRecord, urlPath: string, siteHash: string, prev: NavLink | undefined, next: NavLink | undefined, extra: unknown): string {
  const { summary, cacheKey } = record;
  const known = shellInputsMemo.get(summary);
  if (known && known.urlPath === urlPath && known.siteHash === siteHash && known.cacheKey === cacheKey && sameLink(known.prev, prev) && sameLink(known.next, next) && sameJson(known.extra, extra)) return known.inputs;
  const inputs = sha256(JSON.stringify([siteHash, cacheKey, summary.deps, urlPath, prev, next, extra]));
  shellInputsMemo.set(summary, { siteHash, cacheKey, urlPath, prev, next, extra, inputs });
  return inputs;
}

/** Whether two neighbour links serialise alike: both absent, or the same title and path (a link's only fields, see `readingOrder`). */
function sameLink(a: NavLink | undefined, b: NavLink | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.title === b.title && a.path === b.path);
}

/** The template's client bundle: asset URLs, and the file of each key under `_folio/`. */
export interface ClientBundle {
  assets: ClientAssets;
  /** Site key (`_folio/…`) → the file in the template's cache folder (immutable per version). */
  files: Map<string, string>;
}

/** The template's client bundle: built once per template version (cached on disk), looked up once per process. */
let bundle: Promise<ClientBundle> | undefined;

/**
 * The template's client bundle, shared by every build of the process. Its files are read only
 * when published: a build whose previous deployment holds them (an edit) reads none.
 */
export function clientBundle(): Promise<ClientBundle> {
  bundle ??= cachedClientAssets().then(({ assets, files, dir }) => ({
    assets, files: new Map(files.map((file) => [`_folio/${file}`, path.join(dir, file)])),
  }));
  bundle.catch(() => { bundle = undefined; });
  return bundle;
}

/** Publishes the template's client bundle; returns its asset URLs. */
async function clientAssets(publisher: Publisher): Promise<ClientAssets> {
  const { assets, files } = await clientBundle();
  for (const [key, file] of files) {
    if (!publisher.keep(key)) await publisher.emit(key, await fs.promises.readFile(file));
  }
  return assets;
}
