/**
 * Maps a request path of a site to the object keys to try, in order (clean URLs):
 *   /                    → index.html
 *   /guides/install      → guides/install/index.html, then guides/install (a file without extension)
 *   /guides/install/     → same as without the slash
 *   /logo.svg, /x.md     → that file
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
  if (markdown && !hasExtension) return [trimmed === '' ? 'index.md' : `${trimmed}.md`];
  if (trimmed === '') return ['index.html'];
  if (hasExtension && !clean.endsWith('/')) return [trimmed];
  return [`${trimmed}/index.html`, trimmed];
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

/**
 * The redirect a request path matches, if any: a rule's source matches the path with or without
 * its trailing slash. Shared by the site server and the dev server so both redirect alike.
 */
export function matchRedirect(rules: readonly RedirectRule[], pathname: string): RedirectRule | undefined {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : '/';
  return rules.find((r) => r.source === trimmed || r.source === pathname);
}
