/**
 * The repository as one audience sees it: the pages it may not read are gone, and `docs.json`
 * (with the files it includes by `$ref`) no longer names them: navigation entries, groups and
 * divisions left empty, group roots and redirects to them are removed. Every output the build
 * makes from this snapshot (shells and their navigation, search, `llms.txt`, exports, feeds,
 * sitemap, redirects, the 404 page) is then made of the audience's pages only.
 */
import { CONFIG_FILE } from '../config/parse-config.ts';
import { gitBlobId } from '../git/blob-id.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { urlPathFor } from '../compile/url-path.ts';
import type { Audience } from './audiences.ts';

const CHILD_KEYS = ['languages', 'versions', 'products', 'dropdowns', 'tabs', 'menu', 'anchors', 'groups', 'pages'] as const;

/** `/guides/x` and `./guides/x` name `guides/x`, as the navigation schema reads them. */
const normalRef = (ref: string) => (/^(?:\S+ )?[A-Z]+ \//.test(ref) ? ref : ref.replace(/^(?:\.?\/)+/, ''));

type Json = unknown;

/** `value` without the references in `hidden`; `undefined` when an object is left with nothing to show. */
function filterNavigation(value: Json, hidden: ReadonlySet<string>): Json {
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      if (typeof item === 'string') return hidden.has(normalRef(item)) ? [] : [item];
      const kept = filterNavigation(item, hidden);
      return kept === undefined ? [] : [kept];
    });
  }
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, Json> = { ...(value as Record<string, Json>) };
  if (typeof out.root === 'string' && hidden.has(normalRef(out.root))) delete out.root;
  let hadChildren = false;
  let hasChildren = false;
  for (const key of CHILD_KEYS) {
    if (!Array.isArray(out[key])) continue;
    const before = (out[key] as Json[]).length;
    out[key] = filterNavigation(out[key], hidden);
    hadChildren ||= before > 0;
    hasChildren ||= (out[key] as Json[]).length > 0;
  }
  // A group or division whose every page is hidden goes too (a link division keeps its href).
  if (hadChildren && !hasChildren && out.root === undefined && out.href === undefined && out.openapi === undefined) return undefined;
  return out;
}

/** The references (`guides/x`, `guides` for `guides/index`) of the pages in `paths`. */
function refsOf(paths: Iterable<string>, contentRoot: string): Set<string> {
  const refs = new Set<string>();
  for (const p of paths) {
    const ref = p.slice(contentRoot.length).replace(/\.mdx?$/, '');
    refs.add(ref);
    if (ref.endsWith('/index')) refs.add(ref.slice(0, -'/index'.length));
  }
  return refs;
}

function filterConfig(text: string, hidden: ReadonlySet<string>, hiddenUrls: ReadonlySet<string>): string {
  let json: Record<string, Json>;
  try {
    json = JSON.parse(text) as Record<string, Json>;
  } catch {
    return text; // the build reports the file itself
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return text;
  const out = { ...json };
  if (out.navigation !== undefined) out.navigation = filterNavigation(out.navigation, hidden) ?? (Array.isArray(out.navigation) ? [] : { pages: [] });
  if (Array.isArray(out.redirects)) {
    out.redirects = out.redirects.filter((r) => {
      const destination = (r as { destination?: unknown })?.destination;
      return typeof destination !== 'string' || !hiddenUrls.has(destination.split(/[?#]/, 1)[0].replace(/\/$/, '') || '/');
    });
  }
  return JSON.stringify(out, null, 2);
}

/** An included file (`$ref`) without the hidden pages, when it is JSON. */
function filterIncluded(text: string, hidden: ReadonlySet<string>): string {
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(filterNavigation(json, hidden) ?? [], null, 2);
}

/**
 * The snapshot `audience` sees of `snapshot`: its pages and every file that is not a page;
 * `configFiles` (docs.json and what it includes) rewritten without the hidden pages.
 */
export async function audienceSnapshot(snapshot: RepoSnapshot, allPages: readonly string[], audience: Audience, contentRoot: string, configFiles: Iterable<string>, basePath: string): Promise<RepoSnapshot> {
  const hiddenPages = allPages.filter((p) => !audience.pages.has(p));
  const hidden = refsOf(hiddenPages, contentRoot);
  const hiddenUrls = new Set(hiddenPages.map((p) => `${basePath}${urlPathFor(p, contentRoot)}`.replace(/\/$/, '') || '/'));
  const files = new Map(snapshot.files);
  for (const p of hiddenPages) files.delete(p);
  const rewritten = new Map<string, Uint8Array>();
  for (const file of new Set([CONFIG_FILE, ...configFiles])) {
    if (!files.has(file) || !file.endsWith('.json')) continue;
    const text = Buffer.from(await snapshot.read(file)).toString('utf8');
    const bytes = Buffer.from(file === CONFIG_FILE ? filterConfig(text, hidden, hiddenUrls) : filterIncluded(text, hidden));
    rewritten.set(file, bytes);
    files.set(file, gitBlobId(bytes));
  }
  return {
    ...snapshot,
    files,
    async read(p) {
      const own = rewritten.get(p);
      if (own) return own;
      if (!files.has(p)) throw new Error(`${p} is not part of this audience's site`);
      return snapshot.read(p);
    },
  };
}
