/**
 * The sidebar. The spec leaves navigation to us; the model (documented in builder/README.md,
 * "Navigation") has two modes:
 *
 * - Derived (no `navigation` key): the content folder tree. Folders become groups titled from the
 *   folder name; within a folder the `index` page comes first, then pages and sub-groups ordered
 *   by frontmatter `order` (a group takes the order of its own index page), then by label.
 * - Explicit (`navigation` in docs.json): exactly the listed pages and groups, in that order.
 *   Pages not listed are still built, just not in the sidebar.
 *
 * The sidebar label of a page is `sidebarTitle ?? title`. Paths are site-relative clean URLs.
 */
import type { NavItem } from '@folio/site-template/shared/types.ts';
import type { NavigationEntry } from '../config/navigation-types.ts';
import { capProblems, formatPath } from '../config/error-map.ts';
import { userError } from '../errors.ts';
import type { CompiledPage } from '../types.ts';

/** The few fields of a compiled page the sidebar needs. */
export type NavPage = Pick<CompiledPage, 'sourcePath' | 'urlPath' | 'title' | 'sidebarTitle' | 'order' | 'icon' | 'api' | 'hidden' | 'url'>;

/** Title of the group holding the API reference pages that `navigation` does not place. */
export const API_GROUP_TITLE = 'API reference';

/** The configuration keys the sidebar reads. */
export interface NavConfig {
  contentRoot: string;
  navigation?: NavigationEntry[];
  /** Where each top-level navigation item was written; default its index in the array. */
  navigationPaths?: (string | number)[][];
  /** `interaction.drilldown: true`: a group without `root` links to its first page, so opening it goes there (Mintlify's drilldown). */
  drilldown?: unknown;
}

/** The first page of `items`, depth first. */
function firstPage(items: readonly NavItem[]): string | undefined {
  for (const item of items) {
    if (item.kind === 'page') return item.path;
    const inner = item.kind === 'group' ? (item.path ?? firstPage(item.items)) : undefined;
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * Options of {@link buildNav}. `sources` lists every page source of the build, failed ones
 * included: a listed page that exists but failed to compile (with no earlier version to keep)
 * is left out of the sidebar, since the failure is already reported as a failed page.
 */
export interface NavOptions { sources?: ReadonlySet<string> }

/** `getting-started` → `Getting Started`. */
export function titleFromFolder(name: string): string {
  return name
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ');
}

/** Source path relative to the content root, without extension: `guides/install`, `index`. */
export function pageRef(page: Pick<NavPage, 'sourcePath'>, contentRoot: string): string {
  const rel = page.sourcePath.startsWith(contentRoot) ? page.sourcePath.slice(contentRoot.length) : page.sourcePath;
  return rel.replace(/\.mdx?$/, '');
}

const label = (page: NavPage) => page.sidebarTitle ?? page.title;
const link = (page: NavPage): NavItem => ({ kind: 'page', title: label(page), path: page.urlPath, ...(page.icon ? { icon: page.icon } : {}), ...(page.url ? { href: page.url } : {}) });

interface Folder { index?: NavPage; pages: NavPage[]; folders: Map<string, Folder> }

type Entry = { order?: number; title: string; key: string; item: NavItem };

/** One collator for every comparison: `localeCompare` with options builds a new one per call. */
const titleOrder = new Intl.Collator('en', { sensitivity: 'base' });

function byOrderThenTitle(a: Entry, b: Entry): number {
  const oa = a.order ?? Number.POSITIVE_INFINITY;
  const ob = b.order ?? Number.POSITIVE_INFINITY;
  if (oa !== ob) return oa < ob ? -1 : 1;
  return titleOrder.compare(a.title, b.title) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

function folderItems(folder: Folder): NavItem[] {
  const entries: Entry[] = folder.pages.map((page) => ({ order: page.order, title: label(page), key: page.urlPath, item: link(page) }));
  for (const [name, sub] of folder.folders) {
    const title = titleFromFolder(name);
    entries.push({ order: sub.index?.order, title, key: name, item: { kind: 'group', title, items: folderItems(sub) } });
  }
  entries.sort(byOrderThenTitle);
  return [...(folder.index ? [link(folder.index)] : []), ...entries.map((entry) => entry.item)];
}

function derive(pages: readonly NavPage[], contentRoot: string): NavItem[] {
  const root: Folder = { pages: [], folders: new Map() };
  for (const page of pages) {
    const segments = pageRef(page, contentRoot).split('/');
    const name = segments.pop() as string;
    let folder = root;
    for (const segment of segments) {
      let sub = folder.folders.get(segment);
      if (!sub) folder.folders.set(segment, (sub = { pages: [], folders: new Map() }));
      folder = sub;
    }
    if (name === 'index') folder.index = page;
    else folder.pages.push(page);
  }
  return folderItems(root);
}

type Key = string | number;

/**
 * API reference pages as groups by tag, tags in the order the document first uses them; with
 * `document` (a navigation `openapi` key as written), that document's pages only when any page
 * comes from it (a path from the content root, else from the repository root, or a URL).
 */
function apiTagGroups(pages: readonly NavPage[], document?: string, contentRoot = ''): NavItem[] {
  const bare = document?.replace(/^\.?\/+/, '');
  const fromIt = (doc?: string) => bare !== undefined && (doc === contentRoot + bare || doc === bare || doc === document);
  const own = pages.some((p) => fromIt(p.api?.document)) ? pages.filter((p) => fromIt(p.api?.document)) : pages;
  const byTag = new Map<string, NavItem[]>();
  for (const page of own) {
    if (!page.api) continue;
    const list = byTag.get(page.api.tag) ?? [];
    list.push(link(page));
    byTag.set(page.api.tag, list);
  }
  return [...byTag].map(([title, items]) => ({ kind: 'group', title, items }));
}

/** Whether the sidebar links to any of `paths`. */
function links(items: readonly NavItem[], paths: ReadonlySet<string>): boolean {
  return items.some((item) => (item.kind === 'page' ? paths.has(item.path) : links(item.items, paths)));
}

/** The sidebar plus an "API reference" group when it places none of the API reference pages. */
function withApiGroup(nav: NavItem[], pages: readonly NavPage[]): NavItem[] {
  const api = pages.filter((p) => p.api);
  if (!api.length || links(nav, new Set(api.map((p) => p.urlPath)))) return nav;
  return [...nav, { kind: 'group', title: API_GROUP_TITLE, items: apiTagGroups(api) }];
}

/** `fr` → `Français`: a language is listed in its own name; an unknown code as written. */
export function languageName(code: string): string {
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code);
    return name && name !== code ? name[0].toLocaleUpperCase(code) + name.slice(1) : code;
  } catch {
    return code;
  }
}

function explicit(config: NavConfig & { navigation: NavigationEntry[] }, pages: readonly NavPage[], sources: ReadonlySet<string>): NavItem[] {
  const { contentRoot } = config;
  const byRef = new Map<string, NavPage>();
  for (const page of pages) {
    if (page.api) {
      // The same operation in two documents: the first document's page.
      if (!byRef.has(page.api.operation)) byRef.set(page.api.operation, page);
      continue;
    }
    byRef.set(pageRef(page, contentRoot), page);
    // `guides` also names `guides/index`, the way its URL reads.
    const fromUrl = page.urlPath === '/' ? 'index' : page.urlPath.slice(1);
    if (!byRef.has(fromUrl)) byRef.set(fromUrl, page);
  }
  const isSource = (ref: string) => ['.mdx', '.md', '/index.mdx', '/index.md'].some((ext) => sources.has(contentRoot + ref + ext));
  const missing: string[] = [];
  const pageAt = (written: string, at: Key[]): NavPage | undefined => {
    // "openapi.json GET /users" names the operation of the site's one document.
    const ref = written.replace(/^\S+ (?=[A-Z]+ \/)/, '');
    const page = byRef.get(ref);
    if (!page && !isSource(ref)) missing.push(/^[A-Z]+ \//.test(ref)
      ? `docs.json: ${formatPath(at)}: Unexpected "${written}"; expected an operation of api.openapi, such as GET /users`
      : `docs.json: ${formatPath(at)}: Unexpected "${ref}"; expected the path of a page in ${contentRoot || 'the repository'}`);
    return page;
  };
  const walk = (list: NavigationEntry[], paths: Key[][], at: Key[]): NavItem[] =>
    list.flatMap((entry, i): NavItem[] => {
      const here = [...at, ...paths[i]];
      if (typeof entry === 'string') {
        const page = pageAt(entry, here);
        // `hidden: true`: built, not listed (Mintlify's hidden page).
        return page && !page.hidden ? [link(page)] : [];
      }
      if ('division' in entry) {
        if (entry.hidden) return [];
        const document = entry.openapi || entry.asyncapi;
        const items = document && !entry.items.length ? apiTagGroups(pages, document, contentRoot) : walk(entry.items, entry.paths, here);
        // A division whose pages all failed is dropped, unless it is a link.
        if (!items.length && entry.href === undefined) return [];
        return [{
          kind: 'division', division: entry.division, title: entry.division === 'language' ? languageName(entry.name) : entry.name, items,
          ...(entry.href !== undefined ? { href: entry.href } : {}), ...(entry.default ? { default: true } : {}), ...(entry.tag ? { tag: entry.tag } : {}),
          // A menu item shows its icon and description in its tab's dropdown.
          ...(entry.division === 'item' && entry.description ? { description: entry.description } : {}), ...(entry.division === 'item' && entry.icon ? { icon: entry.icon } : {}),
        }];
      }
      if (entry.hidden) return [];
      const root = entry.root !== undefined ? pageAt(entry.root, [...here, 'root']) : undefined;
      const document = entry.openapi || entry.asyncapi;
      const items = document && !entry.pages.length ? apiTagGroups(pages, document, contentRoot) : walk(entry.pages, entry.pages.map((_, j) => ['pages', j]), here);
      // A group whose pages are all hidden (or failed) shows nothing, as a division does.
      if (!items.length && entry.pages.length > 0 && !root) return [];
      const path = root ? root.urlPath : config.drilldown === true ? firstPage(items) : undefined;
      return [{
        kind: 'group', title: entry.group, items,
        ...(entry.expanded !== undefined ? { expanded: entry.expanded } : {}), ...(path !== undefined ? { path } : {}), ...(entry.tag ? { tag: entry.tag } : {}),
        ...(entry.icon ? { icon: entry.icon } : {}),
      }];
    });
  const nav = walk(config.navigation, config.navigationPaths ?? config.navigation.map((_, i) => [i]), ['navigation']);
  if (missing.length) throw userError('invalid_config', capProblems(missing).join('\n'));
  return nav;
}

/**
 * The sidebar of the site.
 *
 * @throws BuilderError `invalid_config` naming every `navigation` entry that names no page source.
 */
export function buildNav(pages: readonly NavPage[], config: NavConfig, options: NavOptions = {}): NavItem[] {
  const nav = config.navigation
    ? explicit(config as NavConfig & { navigation: NavigationEntry[] }, pages, options.sources ?? new Set())
    : derive(pages.filter((p) => !p.api && !p.hidden), config.contentRoot);
  return withApiGroup(nav, pages);
}
