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
import type { NavigationEntry } from '../config/config-schema.ts';
import { formatPath } from '../config/error-map.ts';
import { userError } from '../errors.ts';
import type { CompiledPage } from '../types.ts';

/** The few fields of a compiled page the sidebar needs. */
export type NavPage = Pick<CompiledPage, 'sourcePath' | 'urlPath' | 'title' | 'sidebarTitle' | 'order'>;

/** The configuration keys the sidebar reads. */
export interface NavConfig {
  contentRoot: string;
  navigation?: NavigationEntry[];
}

/** `getting-started` → `Getting Started`. */
export function titleFromFolder(name: string): string {
  return name
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ');
}

/** Source path relative to the content root, without extension: `guides/install`, `index`. */
export function pageRef(page: NavPage, contentRoot: string): string {
  const rel = page.sourcePath.startsWith(contentRoot) ? page.sourcePath.slice(contentRoot.length) : page.sourcePath;
  return rel.replace(/\.mdx?$/, '');
}

const label = (page: NavPage) => page.sidebarTitle ?? page.title;
const link = (page: NavPage): NavItem => ({ kind: 'page', title: label(page), path: page.urlPath });

interface Folder { index?: NavPage; pages: NavPage[]; folders: Map<string, Folder> }

type Entry = { order?: number; title: string; key: string; item: NavItem };

function byOrderThenTitle(a: Entry, b: Entry): number {
  const oa = a.order ?? Number.POSITIVE_INFINITY;
  const ob = b.order ?? Number.POSITIVE_INFINITY;
  if (oa !== ob) return oa < ob ? -1 : 1;
  return a.title.localeCompare(b.title, 'en', { sensitivity: 'base' }) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
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

function explicit(entries: NavigationEntry[], pages: readonly NavPage[], contentRoot: string): NavItem[] {
  const byRef = new Map<string, NavPage>();
  for (const page of pages) {
    byRef.set(pageRef(page, contentRoot), page);
    // `guides` also names `guides/index`, the way its URL reads.
    const fromUrl = page.urlPath === '/' ? 'index' : page.urlPath.slice(1);
    if (!byRef.has(fromUrl)) byRef.set(fromUrl, page);
  }
  const missing: string[] = [];
  const walk = (list: NavigationEntry[], path: (string | number)[]): NavItem[] =>
    list.flatMap((entry, i): NavItem[] => {
      if (typeof entry !== 'string') return [{ kind: 'group', title: entry.group, items: walk(entry.pages, [...path, i, 'pages']) }];
      const page = byRef.get(entry);
      if (page) return [link(page)];
      missing.push(`docs.json: ${formatPath([...path, i])}: Unexpected "${entry}"; expected the path of a page in ${contentRoot || 'the repository'}`);
      return [];
    });
  const nav = walk(entries, ['navigation']);
  if (missing.length) throw userError('invalid_config', missing.join('\n'));
  return nav;
}

/**
 * The sidebar of the site.
 *
 * @throws BuilderError `invalid_config` naming every `navigation` entry that is not a page.
 */
export function buildNav(pages: readonly NavPage[], config: NavConfig): NavItem[] {
  return config.navigation ? explicit(config.navigation, pages, config.contentRoot) : derive(pages, config.contentRoot);
}
