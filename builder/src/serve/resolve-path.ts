/**
 * Maps a request path of a site to the object keys to try, in order (clean URLs):
 *   /                    → index.html
 *   /guides/install      → guides/install/index.html, then guides/install (a file without extension)
 *   /guides/install/     → same as without the slash
 *   /logo.svg, /x.md     → that file
 *   /guides/index, /guides/chat.mdx → after the keys above, the page's own (guides/index.html,
 *                          guides/chat/index.html): Mintlify serves a page at its source's name
 * With `markdown` (an `Accept: text/markdown` request) a page path maps to its `.md` export.
 * Returns undefined for paths that must never be served (the builder's own state, traversal).
 */
export function candidateKeys(pathname: string, markdown: boolean): string[] | undefined {
  let decoded: string;
  try { decoded = decodeURIComponent(pathname); } catch { return undefined; }
  if (decoded.includes('\0') || decoded.split('/').some((s) => s === '..' || s === '.') || decoded.includes('\\')) return undefined;
  const clean = decoded.replace(/\/+/g, '/').replace(/^\//, '');
  if (clean.startsWith('_folio/cache/') || clean === '_folio/manifest.json' || clean.startsWith('_folio/cache')) return undefined;
  // Other audiences' sites (access/audiences.ts): served only through a reader's session, never by path.
  if (clean.startsWith('_folio/access')) return undefined;
  const trimmed = clean.replace(/\/$/, '');
  const last = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  const hasExtension = last.includes('.');
  // Mintlify serves a page at its source's name too: `/guides/index` and `/guides/chat.mdx`.
  const source = last.endsWith('.mdx') ? trimmed.slice(0, -'.mdx'.length) : trimmed;
  const page = source === 'index' || source.endsWith('/index') ? source.slice(0, -'index'.length).replace(/\/$/, '') : source !== trimmed ? source : undefined;
  const pageKeys = page === undefined ? [] : markdown ? [page === '' ? 'index.md' : `${page}.md`] : [page === '' ? 'index.html' : `${page}/index.html`];
  if (markdown && !hasExtension) return [...new Set([trimmed === '' ? 'index.md' : `${trimmed}.md`, ...pageKeys])];
  if (trimmed === '') return ['index.html'];
  if (hasExtension && !clean.endsWith('/')) return [trimmed, ...pageKeys];
  return [`${trimmed}/index.html`, trimmed, ...pageKeys];
}

/** Whether the client prefers Markdown over HTML (`Accept: text/markdown`). */
export function wantsMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  let md = -1;
  let html = -1;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().split(';');
    const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith('q='))?.slice(2) ?? 1);
    if (type.trim() === 'text/markdown') md = Math.max(md, q);
    if (type.trim() === 'text/html') html = Math.max(html, q);
  }
  return md > 0 && md >= html;
}

/** One entry of a site's `_redirects.json`. */
export interface RedirectRule { source: string; destination: string; status: number }

/** A redirect source with parameters (`/blog/:slug`, `/beta/:path*`), compiled once. */
interface SourcePattern { regex: RegExp; names: string[] }

/** Most characters of a redirect source compiled into a pattern: a longer one never matches. */
const MAX_PATTERN = 2048;
const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)([*+?]?)$/;
const patterns = new Map<string, SourcePattern | null>();

/** Whether a redirect source has parameters (`:name`, `:name*`) or a `*` segment (Mintlify's wildcard form). */
export function isRedirectPattern(source: string): boolean {
  return source.includes('/:') || source.includes('/*');
}

/**
 * A redirect source as a pattern, segment by segment: `:name` matches one segment, `:name*` zero
 * or more (`/beta/:slug*` matches `/beta` and `/beta/a/b`), `:name+` one or more, `:name?` zero
 * or one, and a `*` segment anything after it; other text matches as it is. Null for a plain source.
 */
function compile(source: string): SourcePattern | null {
  let cached = patterns.get(source);
  if (cached !== undefined) return cached;
  cached = null;
  if (isRedirectPattern(source) && source.length <= MAX_PATTERN) {
    const names: string[] = [];
    let regex = '';
    for (const segment of source.replace(/\/+$/, '').split('/').slice(1)) {
      const param = PARAM.exec(segment);
      const name = param?.[1] ?? (segment === '*' ? `${names.length}` : undefined);
      const mod = param?.[2] ?? (segment === '*' ? '*' : '');
      if (name === undefined) { regex += `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`; continue; }
      names.push(name);
      regex += mod === '*' ? '(?:/(.*))?' : mod === '+' ? '/(.+)' : mod === '?' ? '(?:/([^/]+))?' : '/([^/]+)';
    }
    // One repeated part (`*`, `+`) and 8 parameters at most: more could make a hostile source's
    // pattern backtrack for seconds on a long path; such a source matches only as written.
    const repeated = regex.split('(.*)').length + regex.split('(.+)').length - 2;
    if (repeated <= 1 && names.length <= 8) cached = { regex: new RegExp(`^${regex}/?$`), names };
  }
  if (patterns.size > 10_000) patterns.clear();
  patterns.set(source, cached);
  return cached;
}

/**
 * Where `pathname` goes by the rule whose `source` has parameters: `destination` with each
 * `:name` (and `:name*`…) replaced by what it matched; undefined when the path does not match.
 */
export function applyRedirectPattern(source: string, destination: string, pathname: string): string | undefined {
  const pattern = compile(source);
  const match = pattern?.regex.exec(pathname);
  if (!pattern || !match) return undefined;
  const values = new Map(pattern.names.map((name, i) => [name, match[i + 1] ?? '']));
  const replaced = destination.replace(/:([A-Za-z_][A-Za-z0-9_]*)[*+?]?/g, (whole, name: string) => (values.has(name) ? values.get(name)! : whole));
  // An empty `:slug*` leaves `/v2/`: written without the slash, as the source matched it.
  return replaced.length > 1 ? replaced.replace(/(.)\/+(?=$|[?#])/, '$1') : replaced;
}

/**
 * The redirect a request path matches, if any, in the rules' order: a rule's source matches the
 * path with or without its trailing slash, and a source with parameters (`/beta/:slug*`, see
 * `applyRedirectPattern`) matches its pattern, its destination then filled in. Shared by the site
 * server and the dev server so both redirect alike.
 */
export function matchRedirect(rules: readonly RedirectRule[], pathname: string): RedirectRule | undefined {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : '/';
  for (const r of rules) {
    if (r.source === trimmed || r.source === pathname) return r;
    if (!isRedirectPattern(r.source)) continue;
    const destination = applyRedirectPattern(r.source, r.destination, trimmed);
    if (destination !== undefined) return { ...r, destination };
  }
  return undefined;
}
