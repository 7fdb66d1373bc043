/**
 * Who reads which page. Every page's access (its frontmatter's `groups`/`public`, else its
 * navigation group's, the nearest group's first) sorts the site's pages into audiences; the build
 * then makes one complete site per audience from that audience's pages alone
 * (access/access-build.ts), so nothing of a page reaches the outputs of readers who may not read it.
 *
 * - Without reader authentication: one audience, the site as published today minus every page
 *   with `groups` (nobody can sign in to read them, and they must not leak).
 * - With reader authentication: the site itself holds the `public` pages only; `members` (every
 *   signed-in reader) the pages without `groups`; each group its own pages plus the members'.
 */
import { createHmac } from 'node:crypto';
import type { NavigationEntry } from '../config/navigation-types.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import type { SitePlan } from '../pipeline/site-plan.ts';
import type { AccessIndex } from './access-index.ts';
import { combineAccess, type AccessKeys } from './access-keys.ts';
import { readPageAccess } from './page-access.ts';
import { limitConcurrency } from '../store/limit-concurrency.ts';

/** Where every audience but the site's own is published, relative to the site (never served as a path). */
export const ACCESS_PREFIX = '_folio/access/';

/** One audience: a name (`members`, `group:<name>`) and the pages it reads. */
export interface Audience {
  name: string;
  /** Source paths of its pages. */
  pages: Set<string>;
}

/** The site's audiences: the one published at the site's own prefix, and the others. */
export interface SiteAudiences {
  /** Source path → its access, for every page. */
  access: Map<string, AccessKeys>;
  site: Audience;
  variants: Audience[];
}

/** The key under {@link ACCESS_PREFIX} of audience `name`: not derivable without the site's secret. */
export function audienceKey(secret: string, name: string): string {
  return createHmac('sha256', secret).update(`folio-audience\n${name}`).digest('hex').slice(0, 40);
}

/** The prefix (relative to the site) of audience `name`'s site. */
export function audiencePrefix(secret: string, name: string): string {
  return `${ACCESS_PREFIX}${audienceKey(secret, name)}/`;
}

/** A page reference of the navigation (`guides/install`) → its source path, for every page. */
export function sourcesByRef(pages: readonly string[], contentRoot: string): Map<string, string> {
  const byRef = new Map<string, string>();
  for (const p of pages) {
    if (!p.startsWith(contentRoot)) continue;
    const ref = p.slice(contentRoot.length).replace(/\.mdx?$/, '');
    if (!byRef.has(ref)) byRef.set(ref, p);
    if (ref.endsWith('/index') && !byRef.has(ref.slice(0, -'/index'.length))) byRef.set(ref.slice(0, -'/index'.length), p);
  }
  return byRef;
}

function inheritFromNavigation(items: readonly NavigationEntry[], inherited: AccessKeys, byRef: Map<string, string>, into: Map<string, AccessKeys>): void {
  for (const entry of items) {
    if (typeof entry === 'string') {
      const source = byRef.get(entry);
      if (source && !into.has(source)) into.set(source, inherited);
    } else if ('division' in entry) {
      inheritFromNavigation(entry.items, inherited, byRef, into);
    } else {
      const here = entry.access ? combineAccess(inherited, entry.access) : inherited;
      const listed = entry.root !== undefined ? [entry.root, ...entry.pages] : entry.pages;
      inheritFromNavigation(listed, here, byRef, into);
    }
  }
}

/**
 * A page's own keys by its blob id, kept by the process: a long-lived builder (the worker's build
 * process, the dev server) reads only the pages that changed; a fresh process finds them in the
 * state's index (access-index.ts). Reading all 2,000 pages of a
 * repository took 0.5-0.8 s at load average 31, on every build, edits included.
 */
const ownByBlob = new Map<string, AccessKeys>();
const MAX_REMEMBERED = 100_000;
/** Pages read at once to learn their keys. */
const READS_AT_ONCE = 64;

async function ownAccess(snapshot: RepoSnapshot, path: string, index?: AccessIndex): Promise<AccessKeys> {
  const blob = snapshot.files.get(path);
  const known = blob === undefined ? undefined : ownByBlob.get(blob) ?? index?.get(blob);
  if (known) {
    // Known to this process but not to the state's index: the index gets it too, so what a build
    // stores does not depend on what the process had read before.
    if (blob !== undefined) index?.learn(blob, known);
    return known;
  }
  const keys = readPageAccess(Buffer.from(await snapshot.read(path)).toString('utf8'), path);
  if (blob !== undefined) {
    if (ownByBlob.size >= MAX_REMEMBERED) ownByBlob.clear();
    ownByBlob.set(blob, keys);
    index?.set(blob, keys);
  }
  return keys;
}

/** Whether a reader of audience `name` (under `readerAuth`) may read a page with `access`. */
export function audienceReads(name: string, access: AccessKeys, readerAuth: boolean): boolean {
  if (name === 'site') return readerAuth ? access.public === true : !access.groups;
  if (!access.groups) return true; // members and every group read the pages without groups
  return name.startsWith('group:') && access.groups.includes(name.slice('group:'.length));
}

/**
 * The audiences of a commit, or `undefined` when no page or group names an access key and reader
 * authentication is off (the build is then the site as it always was).
 *
 * @throws BuilderError `invalid_frontmatter` for a page's access key of the wrong shape.
 */
export async function siteAudiences(snapshot: RepoSnapshot, plan: SitePlan, readerAuth: boolean, index?: AccessIndex): Promise<SiteAudiences | undefined> {
  const { config, layout } = plan;
  const access = new Map<string, AccessKeys>();
  const inherited = new Map<string, AccessKeys>();
  inheritFromNavigation(config.navigation ?? [], {}, sourcesByRef(layout.pages, config.contentRoot), inherited);
  let named = [...inherited.values()].some((a) => a.groups || a.public !== undefined);
  // Bounded: a repository of 25,000 pages read all at once ran out of file descriptors (EMFILE).
  const limit = limitConcurrency(READS_AT_ONCE);
  const owns = await Promise.all(layout.pages.map((p) => limit(() => ownAccess(snapshot, p, index))));
  layout.pages.forEach((p, i) => {
    const own = owns[i];
    if (own.groups || own.public !== undefined) named = true;
    access.set(p, combineAccess(inherited.get(p) ?? {}, own));
  });
  if (!named && !readerAuth) return undefined;
  const audience = (name: string): Audience => ({ name, pages: new Set(layout.pages.filter((p) => audienceReads(name, access.get(p)!, readerAuth))) });
  if (!readerAuth) return { access, site: audience('site'), variants: [] };
  const groups = [...new Set([...access.values()].flatMap((a) => a.groups ?? []))].sort();
  return { access, site: audience('site'), variants: [audience('members'), ...groups.map((g) => audience(`group:${g}`))] };
}
