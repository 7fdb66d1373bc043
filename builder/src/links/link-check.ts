/**
 * The build's link check: every internal link a page writes (links/page-links.ts collects them
 * with positions) must reach a page, a published file, a site export or a redirect, and a
 * `#fragment` on a page must name an id that page renders. Links resolve the way a browser
 * resolves them against the page's clean URL, so `./install` on `/guides/quickstart` means
 * `/guides/install`.
 *
 * Never reported (the false positives other docs tools are known for): external URLs and any
 * other scheme (`https:`, `mailto:`, `tel:`, protocol-relative `//host`), query strings (ignored),
 * dots in page paths (`/releases/v1.2` is a page path, not a file), a fragment on a file or a
 * redirect, paths outside the docs base path, and fragments of a page that failed to compile
 * (its ids are unknown; the failure itself is reported).
 *
 * Incremental: a {@link LinkChecker} remembers each page's result, keyed by its cache key, and
 * re-checks only pages whose source changed, pages that moved, and pages linking to a path whose
 * existence or ids changed; a change to the published files or redirects re-checks every page.
 */
import { fragmentNames } from '@folio/site-template/node/anchor-id.ts';
import { applyRedirectPattern } from '../serve/resolve-path.ts';
import type { PageLink } from '../types.ts';

/** A page whose links are checked. */
export interface LinkSource {
  sourcePath: string;
  urlPath: string;
  /** Changes whenever the page's source (and so its links) changes: its cache key. */
  key: string;
  links?: readonly PageLink[];
}

/** What links may reach. */
export interface LinkTargets {
  /** URL path of every page → the ids it renders; undefined when they are unknown (a failed page). */
  pages: ReadonlyMap<string, ReadonlySet<string> | undefined>;
  /**
   * Other site paths that answer: published files, site-wide exports (`/llms.txt`), redirect
   * sources. Each page's own exports (`/guides/a.md`, `/guides/a/rss.xml`; `/index.md` and
   * `/index/rss.xml` for `/`) answer too without being listed: 20,000 paths at 10,000 pages,
   * gathered and compared by every build, for what `pages` already says.
   */
  files: ReadonlySet<string>;
  /** URL paths of pages with no published version (failed at their first build): they have no exports. */
  unpublished?: ReadonlySet<string>;
  /** Docs base path (`''` or `/docs`): links are written with it. */
  basePath: string;
  /** Redirect sources with parameters (`/beta/:slug*`): a path they match answers. Also listed in `files`, so a change re-checks every page. */
  redirectPatterns?: readonly string[];
}

const NONE: ReadonlySet<string> = new Set();

/** A link that reaches nothing, or an anchor its page does not have. */
export interface BrokenLink { file: string; line: number; column: number; href: string; message: string }

/** What one check found. */
export interface LinkReport {
  /** Broken links of every page, by file then position. */
  broken: BrokenLink[];
  /** Links examined by this check (links of pages whose result was reused are not counted). */
  checked: number;
}

/** A link resolved to a site path (without base path and trailing slash) and a decoded fragment. */
interface Resolved { path: string; hash: string }

const ORIGIN = 'http://site.invalid';
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The page a path written as Mintlify authors write it names: its source file (`/guides/chat.mdx`,
 * `./chat.mdx`) or its `index` (`/assistant/index` → `/assistant`, `/index` → `/`), as the site
 * serves them (serve/resolve-path.ts). Other paths are returned unchanged.
 */
export function pagePath(path: string): string {
  const page = path.endsWith('.mdx') ? path.slice(0, -'.mdx'.length) : path;
  if (page === '/index') return '/';
  return page.endsWith('/index') ? page.slice(0, -'/index'.length) : page;
}

/** Where `href`, written on the page at `urlPath`, points inside the site; undefined when it leaves it. */
export function resolveLink(href: string, urlPath: string, basePath: string): Resolved | undefined {
  const raw = href.trim();
  if (raw === '' || SCHEME.test(raw) || raw.startsWith('//')) return undefined;
  let url: URL;
  try {
    url = new URL(raw, `${ORIGIN}${basePath}${urlPath === '/' ? '/' : urlPath}`);
  } catch {
    return undefined;
  }
  if (url.origin !== ORIGIN) return undefined;
  let path = decode(url.pathname);
  if (basePath) {
    if (path !== basePath && !path.startsWith(`${basePath}/`)) return undefined;
    path = path.slice(basePath.length) || '/';
  }
  if (path.length > 1) path = path.replace(/\/+$/, '') || '/';
  return { path: pagePath(path), hash: decode(url.hash.slice(1)) };
}

/**
 * The page whose own export `path` would be (`/a/b.md` and `/a/b/rss.xml` → `/a/b`, `/index.md`
 * and `/index/rss.xml` → `/`; the inverse of `markdownKey` and `feedKey`), else undefined.
 */
export function exportOwner(path: string): string | undefined {
  const page = path.endsWith('.md') ? path.slice(0, -'.md'.length) : path.endsWith('/rss.xml') ? path.slice(0, -'/rss.xml'.length) : undefined;
  if (!page || page === '/') return undefined;
  return page === '/index' ? '/' : page;
}

/** Whether an id of the page is named by `hash` without its leading `_`, `@` or `$` (`#meta` for `_meta`), as Mintlify's links do. */
function hasAlias(ids: ReadonlySet<string>, hash: string): boolean {
  for (const id of ids) if (id !== hash && fragmentNames(hash, id)) return true;
  return false;
}

/** Why the resolved link is broken, or undefined when it reaches something. */
function problem(link: Resolved, targets: LinkTargets): string | undefined {
  if (targets.pages.has(link.path)) {
    const ids = targets.pages.get(link.path);
    if (!link.hash || !ids || ids.has(link.hash) || hasAlias(ids, link.hash)) return undefined;
    return `Unexpected anchor #${link.hash}; expected the id of a heading or element on ${link.path}`;
  }
  if (targets.files.has(link.path)) return undefined;
  if (targets.redirectPatterns?.some((source) => applyRedirectPattern(source, source, link.path) !== undefined)) return undefined;
  const owner = exportOwner(link.path);
  if (owner !== undefined && targets.pages.has(owner) && !targets.unpublished?.has(owner)) return undefined;
  return `Unexpected link to ${link.path}; expected a page, a file of the site or a redirect source`;
}

/** A rooted link's resolution and what is wrong with it, the same from every page of one check. */
interface Verdict { resolved: Resolved | undefined; why: string | undefined }

/**
 * Broken links of one page and the site paths its links point at. `rooted` remembers links that
 * start with one `/` (most links of a site): they resolve, and so reach or miss, the same from
 * every page, so each is resolved and judged once per check, not once per page writing it.
 */
function checkPage(page: LinkSource, targets: LinkTargets, rooted: Map<string, Verdict>): { broken: BrokenLink[]; refs: Set<string> } {
  const broken: BrokenLink[] = [];
  const refs = new Set<string>();
  for (const link of page.links ?? []) {
    const shared = link.href.startsWith('/') && !link.href.startsWith('//');
    let verdict = shared ? rooted.get(link.href) : undefined;
    if (!verdict) {
      const resolved = resolveLink(link.href, page.urlPath, targets.basePath);
      verdict = { resolved, why: resolved && problem(resolved, targets) };
      if (shared) rooted.set(link.href, verdict);
    }
    const { resolved, why } = verdict;
    if (!resolved) continue;
    // A bare `#id` reaches the page itself. A link to a page's export depends on the page too.
    refs.add(resolved.path);
    const owner = exportOwner(resolved.path);
    if (owner !== undefined) refs.add(owner);
    if (why) broken.push({ file: page.sourcePath, line: link.line, column: link.column, href: link.href, message: why });
  }
  return { broken, refs };
}

/** A page's ids as one string; kept by set, since a site's next build passes the same sets for unchanged pages. */
const signatures = new WeakMap<ReadonlySet<string>, string>();
function signature(ids: ReadonlySet<string> | undefined): string {
  if (!ids) return '\0unknown';
  let sig = signatures.get(ids);
  if (sig === undefined) signatures.set(ids, sig = [...ids].sort().join('\n'));
  return sig;
}

/** Whether two sets hold the same strings (no sorting and joining 20,000 file keys per build). */
function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}

/** One line per broken link, as the build log and the deployment show it. */
export function formatBrokenLink(b: BrokenLink): string {
  return `${b.file}:${b.line}:${b.column}: ${b.message}`;
}

/** What one page's check found: the cache key and URL it was checked at, its broken links and the paths its links reach. */
interface PageResult { key: string; urlPath: string; broken: BrokenLink[]; refs: Set<string> }

/** A link check that remembers its results between builds of the same site (see the module comment). */
export class LinkChecker {
  /** By source path. Kept from check to check and changed in place: an edit re-checks a few pages of 10,000s. */
  private results = new Map<string, PageResult>();
  /** Source paths whose result has broken links (a site has few), so a check need not scan every result for them. */
  private withBroken = new Set<string>();
  /** The last check's targets: unchanged pages pass the same id sets (site-links.ts), compared by identity first. */
  private last: LinkTargets | undefined;

  /** Checks `pages` against `targets`, re-checking only what can have changed since the last call. */
  check(pages: readonly LinkSource[], targets: LinkTargets): LinkReport {
    const last = this.last;
    const everything = !last || last.basePath !== targets.basePath || !sameSet(last.files, targets.files) || !sameSet(last.unpublished ?? NONE, targets.unpublished ?? NONE);
    const changed = everything ? new Set<string>() : changedPages(last.pages, targets.pages);
    let checked = 0;
    const rooted = new Map<string, Verdict>();
    for (const page of pages) {
      const before = this.results.get(page.sourcePath);
      if (before && !everything && before.key === page.key && before.urlPath === page.urlPath && !refersTo(before.refs, changed)) continue;
      checked += page.links?.length ?? 0;
      const result = { key: page.key, urlPath: page.urlPath, ...checkPage(page, targets, rooted) };
      this.results.set(page.sourcePath, result);
      if (result.broken.length > 0) this.withBroken.add(page.sourcePath);
      else this.withBroken.delete(page.sourcePath);
    }
    // Pages gone since the last check (source paths are unique, so the counts tell).
    if (this.results.size > pages.length) {
      const now = new Set(pages.map((p) => p.sourcePath));
      for (const sourcePath of this.results.keys()) if (!now.has(sourcePath)) { this.results.delete(sourcePath); this.withBroken.delete(sourcePath); }
    }
    this.last = targets;
    const broken = [...this.withBroken].sort().flatMap((sourcePath) => this.results.get(sourcePath)!.broken);
    return { broken, checked };
  }
}

/** URL paths whose page appeared, disappeared or renders other ids since `before` (most pages pass the very same set). */
function changedPages(before: ReadonlyMap<string, ReadonlySet<string> | undefined>, now: ReadonlyMap<string, ReadonlySet<string> | undefined>): Set<string> {
  const changed = new Set<string>();
  let kept = 0;
  for (const [path, ids] of now) {
    if (!before.has(path)) {
      changed.add(path);
      continue;
    }
    kept++;
    const had = before.get(path);
    if (had !== ids && signature(had) !== signature(ids)) changed.add(path);
  }
  if (kept < before.size) for (const path of before.keys()) if (!now.has(path)) changed.add(path);
  return changed;
}

/** Whether a page's link targets include a changed page (without copying them: checked for every page of every build). */
function refersTo(refs: ReadonlySet<string>, changed: ReadonlySet<string>): boolean {
  if (changed.size === 0) return false;
  for (const ref of refs) if (changed.has(ref)) return true;
  return false;
}
