/**
 * Checks of `navigation` against the repository's files, made as soon as `docs.json` is read,
 * before any page is compiled: which folder the page paths are relative to, and whether every
 * page path names a file. A repository whose paths all miss then fails in milliseconds with one
 * line per entry, instead of after compiling every page.
 *
 * Mintlify reads page paths relative to the folder holding `docs.json`; ours default to `docs/`
 * (see `contentRoot`). When `contentRoot` is not set, `docs.json` sits at the repository root and
 * its page paths name more files from the root than from `docs/` (a Mintlify repository that
 * happens to have a `docs/` folder of its own, its entries written `docs/intro`), the root is the
 * content root.
 */
import type { NavigationEntry } from './navigation-types.ts';
import { capProblems, formatPath } from './error-map.ts';
import { readDimensions } from '../nav/dimensions.ts';
import { userError } from '../errors.ts';
import { repoLayout } from '../repo-layout.ts';

type Key = string | number;

const PAGE = /\.mdx?$/;
/** An API operation (`GET /users`, `openapi.json GET /users`): generated, no file to look for. */
const OPERATION = /^(?:\S+ )?[A-Z]+ \//;

/** Every page path the navigation names, with where it is written (hidden divisions and groups included only when `withHidden`). */
function pageRefs(items: readonly NavigationEntry[], paths: readonly Key[][], at: Key[], withHidden: boolean): { ref: string; at: Key[] }[] {
  return items.flatMap((entry, i) => {
    const here = [...at, ...paths[i]];
    if (typeof entry === 'string') return OPERATION.test(entry) ? [] : [{ ref: entry, at: here }];
    if (entry.hidden && !withHidden) return [];
    if ('division' in entry) return pageRefs(entry.items, entry.paths, here, withHidden);
    const root = entry.root !== undefined && !OPERATION.test(entry.root) ? [{ ref: entry.root, at: [...here, 'root'] }] : [];
    return [...root, ...pageRefs(entry.pages, entry.pages.map((_, j) => ['pages', j]), here, withHidden)];
  });
}

/** Every page path the navigation names (hidden parts included): repository files listed there are pages (see `repoLayout`). */
export function listedPages(navigation: readonly NavigationEntry[] | undefined): Set<string> {
  return new Set(navigation ? pageRefs(navigation, navigation.map(() => []), [], true).map(({ ref }) => ref) : []);
}

/** Whether `ref` names a page file under `root` (`guides` also names `guides/index`). */
function isPageAt(files: ReadonlyMap<string, string> | ReadonlySet<string>, root: string, ref: string): boolean {
  return ['.mdx', '.md', '/index.mdx', '/index.md'].some((ext) => files.has(root + ref + ext));
}

/**
 * The content root to use: `configured` unless it is the default `docs/` (not written in
 * `docs.json`) and the navigation's page paths name more files from the repository root.
 */
export function chooseContentRoot(
  files: ReadonlyMap<string, string>, configured: string, written: boolean,
  navigation: readonly NavigationEntry[] | undefined, paths: readonly Key[][] | undefined,
): string {
  if (written || configured !== 'docs/' || !navigation) return configured;
  const refs = pageRefs(navigation, paths ?? navigation.map((_, i) => [i]), [], true);
  const count = (root: string) => refs.reduce((n, { ref }) => n + (isPageAt(files, root, ref) ? 1 : 0), 0);
  return count('') > count('docs/') ? '' : configured;
}

/**
 * Fails with one line per `navigation` entry that names no page file under `contentRoot`
 * (at most 100, then a count), the lines the sidebar would report after compiling. Lenient where
 * the sidebar resolves more: a path inside a language or version may be written with or without
 * its folder, and may name a page of another language or version (its fallback).
 *
 * @throws BuilderError `invalid_config` (kind `user`).
 */
export function checkNavigationFiles(
  files: ReadonlyMap<string, string>, contentRoot: string,
  navigation: readonly NavigationEntry[] | undefined, paths: readonly Key[][] | undefined, ignoreText?: string,
): void {
  // `ignoreText`: the text of `.mintignore`, when pages it ignores should count as missing.
  if (!navigation) return;
  const dims = readDimensions(navigation);
  const prefixes = new Set([...dims.languages, ...dims.versions].map((d) => d.prefix).filter(Boolean));
  // A path without its language and version folders: `fr/v2/guides/a` → `guides/a`.
  const bare = (ref: string) => {
    const segments = ref.split('/');
    for (let i = 0; i < 2 && segments.length > 1 && prefixes.has(segments[0]); i++) segments.shift();
    return segments.join('/');
  };
  const known = new Set<string>();
  // The pages the build will have: snippets, ignored files and unlisted repository files are none.
  for (const p of repoLayout(files.keys(), contentRoot, ignoreText, listedPages(navigation)).pages) {
    const ref = p.slice(contentRoot.length).replace(PAGE, '');
    known.add(ref).add(bare(ref));
    if (ref.endsWith('/index')) known.add(ref.slice(0, -'/index'.length)).add(bare(ref.slice(0, -'/index'.length)));
  }
  const lines = pageRefs(navigation, paths ?? navigation.map((_, i) => [i]), ['navigation'], false)
    .filter(({ ref }) => !known.has(ref) && !known.has(bare(ref)))
    .map(({ ref, at }) => `docs.json: ${formatPath(at)}: Unexpected "${ref}"; expected the path of a page in ${contentRoot || 'the repository'}`);
  if (lines.length) throw userError('invalid_config', capProblems(lines).join('\n'));
}
