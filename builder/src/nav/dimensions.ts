/**
 * Languages and versions as two orthogonal dimensions of one site (`navigation.languages` and
 * `navigation.versions` at the top of the object form; versions may also sit inside languages).
 *
 * - Each language and version has a prefix: the folder under contentRoot holding its pages and
 *   the URL segment they are served under (`fr/v2/guides/install.mdx` → `/fr/v2/guides/install`).
 *   The default one (`default: true`, else the first) has none, so the default pages keep their
 *   URLs. The language comes first in paths.
 * - A language or version listing no pages of its own shows the default one's navigation; one
 *   that lists pages (Mintlify's way) shows its own.
 * - A page the navigation of a combination names but whose folder lacks it falls back: to the
 *   same language in the default version, then the default language in the same version, then
 *   the default language and version. It is served at the combination's URL with the fallback's
 *   body, marked as such, its canonical URL the page it shows. Nothing is copied or compiled
 *   again: the shell reuses the fallback's cached body.
 */
import type { NavigationDivision, NavigationEntry } from '../config/navigation-types.ts';
import { languageName, pageRef, type NavPage } from './build-nav.ts';
import { searchSettingsOf, type SearchSettings } from './search-settings.ts';

/** One language or one version. */
export interface Dimension { name: string; title: string; prefix: string; isDefault: boolean }

/** The site's languages and versions (each empty when the navigation declares none). */
export interface Dimensions { languages: Dimension[]; versions: Dimension[] }

/** Where a page sits: its language and version (names; undefined without that dimension) and its path inside them. */
export interface Scope { language?: string; version?: string }

type Key = string | number;
type Tree = { items: NavigationEntry[]; paths: Key[][] };

const isDivision = (entry: NavigationEntry, kind: 'language' | 'version'): entry is NavigationDivision =>
  typeof entry === 'object' && 'division' in entry && entry.division === kind && !entry.hidden;

/** A name as a URL segment: `2.0 (beta)` → `2.0-beta-`. */
const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-');

function dimensionsOf(divisions: NavigationDivision[]): Dimension[] {
  const seen = new Map<string, NavigationDivision>();
  for (const d of divisions) if (!seen.has(d.name)) seen.set(d.name, d);
  const list = [...seen.values()];
  const fallback = list.find((d) => d.default) ?? list[0];
  return list.map((d) => ({
    name: d.name,
    title: d.division === 'language' ? languageName(d.name) : d.name,
    prefix: d.prefix ?? (d === fallback ? '' : slug(d.name)),
    isDefault: d === fallback,
  }));
}

/** The languages and versions the navigation declares. */
export function readDimensions(items: readonly NavigationEntry[] | undefined): Dimensions {
  const top = items ?? [];
  const languages = top.filter((e) => isDivision(e, 'language'));
  // Versions at the top, or inside the languages (every language's, in order of appearance).
  const versions = [...top, ...languages.flatMap((l) => l.items)].filter((e) => isDivision(e, 'version'));
  return { languages: dimensionsOf(languages), versions: dimensionsOf(versions) };
}

/** Whether the site has languages or versions. */
export function hasDimensions(dims: Dimensions): boolean {
  return dims.languages.length > 0 || dims.versions.length > 0;
}

const defaultOf = (list: Dimension[]) => list.find((d) => d.isDefault);

/** The language and version of a URL path, and the path without their prefixes (`/fr/v2/a` → `/a`). */
export function scopeOfUrl(urlPath: string, dims: Dimensions): Scope & { rest: string } {
  const segments = urlPath.split('/').filter(Boolean);
  const take = (list: Dimension[]) => {
    const found = list.find((d) => d.prefix !== '' && d.prefix === segments[0]);
    if (found) segments.shift();
    return (found ?? defaultOf(list))?.name;
  };
  const language = take(dims.languages);
  const version = take(dims.versions);
  return { ...(language !== undefined ? { language } : {}), ...(version !== undefined ? { version } : {}), rest: '/' + segments.join('/') };
}

/** A combination as one search filter value: `fr/v2`, `v2` (no languages), `fr` (no versions). */
export function scopeLabel(scope: Scope): string {
  return [scope.language, scope.version].filter((v) => v !== undefined).join('/');
}

/**
 * The search filters of each written page: `scope`, every combination it is read in (its own
 * and those it is the fallback of), and `path`, its URL without prefixes, from which search
 * links to the page in the reader's own combination. Undefined for a site without languages or
 * versions. Known from docs.json and the list of sources alone, so search shards can be indexed
 * while pages compile. `indexHidden` (`seo.indexing: "all"`) searches hidden pages too.
 */
export function searchFiltersOf(items: NavigationEntry[] | undefined, pages: readonly { sourcePath: string; urlPath: string }[], contentRoot: string, indexHidden = false): SearchScopes | undefined {
  const dims = readDimensions(items);
  // Boosts and pages left out of search (nav/search-settings.ts) travel with the filters.
  const found = searchSettingsOf(items, pages, contentRoot, indexHidden);
  const settings = indexHidden ? { ...found, indexHidden } : found;
  if (!items || !hasDimensions(dims)) return settings ? { filters: () => ({}), meta: () => ({}), ...settings } : undefined;
  const { fallbacks } = resolveDimensions(items, items.map((_, i) => [i]), dims, pages, contentRoot);
  const served = new Map<string, string[]>();
  for (const f of fallbacks) served.set(f.fromUrl, [...served.get(f.fromUrl) ?? [], scopeLabel(f.scope)]);
  return {
    filters: (urlPath) => {
      const { rest: _rest, ...scope } = scopeOfUrl(urlPath, dims);
      return { scope: [scopeLabel(scope), ...served.get(urlPath) ?? []] };
    },
    meta: (urlPath) => ({ path: scopeOfUrl(urlPath, dims).rest }),
    ...settings,
  };
}

/** See {@link searchFiltersOf}. */
export interface SearchScopes extends Partial<SearchSettings> {
  indexHidden?: boolean;
  filters(urlPath: string): Record<string, string[]>;
  meta(urlPath: string): Record<string, string>;
}

/**
 * The content version label of a page for the pages API (spec 4: `latest` is the default):
 * `latest` for the default version and on sites without versions, else the version's name.
 */
export function versionLabel(urlPath: string, dims: Dimensions): string {
  const version = dims.versions.find((d) => d.name === scopeOfUrl(urlPath, dims).version);
  return !version || version.isDefault ? 'latest' : version.name;
}

/** Folder prefix of a combination: `fr/v2/`, `v2/`, `` for the defaults. */
export function prefixOf(scope: Scope, dims: Dimensions): string {
  const lang = dims.languages.find((d) => d.name === scope.language)?.prefix ?? '';
  const ver = dims.versions.find((d) => d.name === scope.version)?.prefix ?? '';
  return [lang, ver].filter(Boolean).map((p) => `${p}/`).join('');
}

/** The URL of `rest` (a path without prefixes) in a combination. */
export function urlIn(scope: Scope, rest: string, dims: Dimensions): string {
  const prefix = prefixOf(scope, dims);
  if (!prefix) return rest;
  return '/' + prefix.slice(0, -1) + (rest === '/' ? '' : rest);
}

/** Stable key of a combination, for maps. */
export const scopeKey = (scope: Scope) => `${scope.language ?? ''}\0${scope.version ?? ''}`;

/** Every combination of language and version, the defaults first. */
export function combinations(dims: Dimensions): Scope[] {
  const order = (list: Dimension[]) => [...list].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
  const languages = dims.languages.length ? order(dims.languages).map((d) => d.name) : [undefined];
  const versions = dims.versions.length ? order(dims.versions).map((d) => d.name) : [undefined];
  return languages.flatMap((language) => versions.map((version) => ({
    ...(language !== undefined ? { language } : {}), ...(version !== undefined ? { version } : {}),
  })));
}

/**
 * The navigation a combination shows: at each level, its language's (then version's) division
 * is entered, or the default one's when it lists no pages, until no language or version is left.
 */
export function treeFor(items: NavigationEntry[], paths: Key[][], scope: Scope): Tree {
  let level: Tree = { items, paths };
  for (const kind of ['language', 'version'] as const) {
    const wanted = kind === 'language' ? scope.language : scope.version;
    for (;;) {
      const found = level.items.map((item, i) => ({ item, i })).filter(({ item }) => isDivision(item, kind)) as { item: NavigationDivision; i: number }[];
      if (!found.length) break;
      const withPages = found.filter(({ item }) => item.items.length > 0);
      const chosen = withPages.find(({ item }) => item.name === wanted) ?? withPages.find(({ item }) => item.default) ?? withPages[0];
      const rest = level.items.map((item, i) => ({ item, i })).filter(({ item }) => !(typeof item === 'object' && 'division' in item && item.division === kind));
      level = {
        items: [...(chosen?.item.items ?? []), ...rest.map(({ item }) => item)],
        paths: [...(chosen ? chosen.item.paths.map((p) => [...level.paths[chosen.i], ...p]) : []), ...rest.map(({ i }) => level.paths[i])],
      };
    }
  }
  return level;
}

/** A page served in a combination that lacks it, with another combination's content. */
export interface FallbackPage {
  /** Its URL in the combination. */
  urlPath: string;
  /** The source path of the page it shows. */
  from: string;
  /** The URL of the page it shows (its canonical URL). */
  fromUrl: string;
  scope: Scope;
  /** Which dimension fell back: the language when it did, else the version. */
  missing: 'language' | 'version';
}

/** The tree of each combination with its page references resolved, and the fallback pages. */
export interface ResolvedDimensions {
  trees: Map<string, Tree>;
  fallbacks: FallbackPage[];
  /** The navigation pages of the fallbacks, by combination key, for `buildNav`. */
  virtualPages: Map<string, NavPage[]>;
}

/**
 * Resolves the page references of every combination's tree: `guides/install` (or the same
 * written with any language or version prefix) names `<prefix>guides/install` when that page
 * exists, else the first fallback that exists (see the module comment). A reference found
 * nowhere is left as written, for `buildNav` to report.
 */
export function resolveDimensions(items: NavigationEntry[], paths: Key[][], dims: Dimensions, pages: readonly Pick<NavPage, 'sourcePath' | 'urlPath'>[], contentRoot: string): ResolvedDimensions {
  const byRef = new Map<string, Pick<NavPage, 'sourcePath' | 'urlPath'>>();
  for (const page of pages) {
    byRef.set(pageRef(page, contentRoot), page);
    const fromUrl = page.urlPath === '/' ? 'index' : page.urlPath.slice(1);
    if (!byRef.has(fromUrl)) byRef.set(fromUrl, page);
  }
  const prefixes = new Set([...dims.languages, ...dims.versions].map((d) => d.prefix).filter(Boolean));
  const strip = (ref: string) => {
    const segments = ref.split('/');
    // At most a language then a version prefix.
    for (let n = 0; n < 2 && segments.length > 1 && prefixes.has(segments[0]); n++) segments.shift();
    return segments.join('/');
  };
  const lang = defaultOf(dims.languages)?.name;
  const ver = defaultOf(dims.versions)?.name;
  const trees = new Map<string, Tree>();
  const fallbacks = new Map<string, FallbackPage>();
  const virtualPages = new Map<string, NavPage[]>();
  for (const scope of combinations(dims)) {
    const key = scopeKey(scope);
    const virtual: NavPage[] = [];
    const chain: Scope[] = [scope, { ...scope, version: ver }, { ...scope, language: lang }, { language: lang, version: ver }]
      .map((s) => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as Scope);
    const resolve = (ref: string): string => {
      const base = strip(ref);
      const own = prefixOf(scope, dims) + base;
      if (byRef.has(own)) return own;
      for (const other of chain.slice(1)) {
        const page = byRef.get(prefixOf(other, dims) + base);
        if (!page) continue;
        const urlPath = urlIn(scope, scopeOfUrl(page.urlPath, dims).rest, dims);
        if (!fallbacks.has(urlPath)) {
          fallbacks.set(urlPath, { urlPath, from: page.sourcePath, fromUrl: page.urlPath, scope, missing: other.language !== scope.language ? 'language' : 'version' });
          virtual.push({ ...(page as NavPage), sourcePath: `${contentRoot}${own}.mdx`, urlPath });
        }
        return own;
      }
      return ref;
    };
    const walk = (list: NavigationEntry[]): NavigationEntry[] => list.map((entry) => {
      if (typeof entry === 'string') return resolve(entry);
      if ('division' in entry) return { ...entry, items: walk(entry.items) };
      return { ...entry, pages: walk(entry.pages), ...(entry.root !== undefined ? { root: resolve(entry.root) } : {}) };
    });
    const tree = treeFor(items, paths, scope);
    trees.set(key, { items: walk(tree.items), paths: tree.paths });
    virtualPages.set(key, virtual);
  }
  return { trees, fallbacks: [...fallbacks.values()], virtualPages };
}
