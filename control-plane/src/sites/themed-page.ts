/**
 * The site's own look for the pages the site server answers before any page of a gated site: the
 * reader sign-in and refusal pages (reader-auth/reader-pages.ts) and the password form
 * (password-gate.ts). They are made from the `404.html` of the live production build's public
 * prefix, which the builder renders in the site's theme from the public pages only (decision 111):
 * its header (logo and name), stylesheets and footer are kept; its `<main data-folio-slot>` gets
 * the form or message; every script, navigation list, button and social title is dropped, so the
 * page runs nothing and names no page. Without a live build, or with a 404 made before the slot
 * existed, the callers keep their plain page.
 *
 * One shell is kept per project while its live deployment is the same (at most `MAX_SHELLS`).
 */
import { parse, serialize, type DefaultTreeAdapterTypes as T } from 'parse5';
import { readSiteHeaders, type ObjectStore } from '@folio/builder';
import type { Models } from '../db/models/index.ts';
import { escapeHtml } from '../http/escape-html.ts';
import { sitePrefix } from './bucket-prefixes.ts';

/** A site's themed frame, ready to take a title and a body. */
export interface ThemedShell {
  /** The page: `title` (text, escaped here) in `<title>`, `bodyHtml` (already escaped by the caller) in the main slot. */
  html(title: string, bodyHtml: string): string;
  /** The response's Content-Security-Policy: the site's own, with no script and forms to the site only. */
  csp: string;
  /** Root-relative paths the page loads (stylesheets, logo, icon): readable without a session or password. */
  assets: ReadonlySet<string>;
}

/** Reads a project's themed shell (undefined: no live build, or its 404 has no slot). */
export type ThemedPages = (projectId: string) => Promise<ThemedShell | undefined>;

/** Shells kept at once (one per project with a gated site being visited). */
export const MAX_SHELLS = 500;
/** The attribute the builder's 404 puts on its main content (site-template render-page.tsx). */
const SLOT = 'data-folio-slot';
/** Stand-ins serialised into the shell, then replaced per page (letters only: serialising keeps them as they are). */
const TITLE_MARK = 'FOLIOTHEMEDTITLEa8c3e1';
const BODY_MARK = 'FOLIOTHEMEDBODYa8c3e1';
/** Elements dropped wherever they are: scripts, navigation lists and the controls that need script. */
const DROPPED = new Set(['script', 'noscript', 'nav', 'aside', 'button', 'select', 'dialog', 'template', 'iframe', 'form', 'input']);
/** Head entries dropped: what names the 404 or the site's search, and what preloads scripts. */
const DROPPED_META = /^(og:|twitter:|folio-|description$|keywords$|robots$)/;
/** The theme's font files, loaded by the font stylesheet through `url()`. */
const FONT_FILE = /^\/_folio\/fonts\/[^?#]*\.(woff2?|ttf|otf)$/;

/** Styles of what is inserted, in the theme's own variables (site-template styles/base.css). */
const GATE_STYLE = `<style>.layout{display:block}.layout>main.content{width:auto;max-width:none;margin:0;padding:0}.folio-gate{max-width:26rem;margin:3rem auto;padding:0 1rem}.folio-gate h1{margin:0 0 .5rem}
.folio-gate .error{color:#b42318}.folio-gate input{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid color-mix(in srgb,currentColor 25%,transparent);border-radius:8px;font:inherit;background:transparent;color:inherit}
.folio-gate a.button,.folio-gate button{display:block;width:100%;box-sizing:border-box;margin-top:.75rem;padding:.6rem;border:0;border-radius:8px;background:var(--accent-solid,#1c1f24);color:#fff;text-align:center;text-decoration:none;font:inherit;cursor:pointer}</style>`;

const attr = (el: T.Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
const isElement = (n: T.ChildNode): n is T.Element => 'tagName' in n;

function textNode(value: string, parentNode: T.ParentNode): T.TextNode {
  return { nodeName: '#text', value, parentNode };
}

/** Walks `node`'s elements in document order, dropping those `keep` refuses. */
function prune(node: T.ParentNode, keep: (el: T.Element) => boolean): void {
  node.childNodes = node.childNodes.filter((child) => !isElement(child) || keep(child));
  for (const child of node.childNodes) if (isElement(child)) prune(child, keep);
}

function find(node: T.ParentNode, match: (el: T.Element) => boolean): T.Element | undefined {
  for (const child of node.childNodes) {
    if (!isElement(child)) continue;
    if (match(child)) return child;
    const inner = find(child, match);
    if (inner) return inner;
  }
  return undefined;
}

/** A same-site root-relative path of `value` (query and fragment dropped), or undefined. */
function localPath(value: string | undefined): string | undefined {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return undefined;
  return value.split(/[?#]/)[0];
}

/**
 * The shell made of a `404.html` (undefined without the slot). `siteCsp` is the policy the build
 * wrote for its pages (`_headers.json`).
 */
export function themedShellOf(notFoundHtml: string, siteCsp: string): ThemedShell | undefined {
  const doc = parse(notFoundHtml);
  const html = find(doc, (el) => el.tagName === 'html');
  const head = html && find(html, (el) => el.tagName === 'head');
  const body = html && find(html, (el) => el.tagName === 'body');
  // The slot of the shell itself: `main` in the layout, never one inside the header, banner or footer.
  const slot = body && find(body, (el) => el.tagName === 'main' && attr(el, SLOT) === 'content' && el.parentNode !== null && isElement(el.parentNode as T.ChildNode) && attr(el.parentNode as T.Element, 'class') === 'layout');
  if (!html || !head || !body || !slot) return undefined;
  slot.childNodes = [];
  const keep = (el: T.Element) => {
    if (DROPPED.has(el.tagName)) return false;
    if (el.tagName === 'meta') return !DROPPED_META.test(attr(el, 'name') ?? attr(el, 'property') ?? '');
    if (el.tagName === 'link') return ['stylesheet', 'icon', 'shortcut icon'].includes((attr(el, 'rel') ?? '').toLowerCase());
    return !/(^|\s)(js-only|skip-link)(\s|$)/.test(attr(el, 'class') ?? '');
  };
  prune(html, keep);
  slot.childNodes = [textNode(BODY_MARK, slot)];
  const title = find(head, (el) => el.tagName === 'title');
  if (title) title.childNodes = [textNode(TITLE_MARK, title)];
  const assets = new Set<string>();
  prune(html, (el) => {
    const path = localPath(el.tagName === 'link' ? attr(el, 'href') : el.tagName === 'img' ? attr(el, 'src') : undefined);
    if (path) assets.add(path);
    return true;
  });
  const [before, rest] = serialize(doc).split(BODY_MARK);
  if (rest === undefined) return undefined;
  const [top, titleRest] = before.split(TITLE_MARK);
  const robots = '<meta name="robots" content="noindex">';
  const start = (titleRest === undefined ? [top] : [top, titleRest]).map((part, i, all) => (i === all.length - 1 ? part.replace('</head>', `${robots}${GATE_STYLE}</head>`) : part));
  return {
    html(pageTitle, bodyHtml) {
      const opening = start.length === 2 ? start[0] + escapeHtml(pageTitle) + start[1] : start[0];
      return `${opening}<div class="folio-gate">${bodyHtml}</div>${rest}`;
    },
    csp: `${siteCsp}; script-src 'none'; connect-src 'none'; form-action 'self'`,
    assets,
  };
}

/** Whether `path` is a file the themed page loads, which a reader without a session or password may read. */
export function isThemedAsset(shell: ThemedShell | undefined, path: string): boolean {
  return shell !== undefined && (shell.assets.has(path) || FONT_FILE.test(path));
}

/** The themed shells of the sites, read from their live production builds (see the module comment). */
export function themedPages(opts: { m: Models; store: ObjectStore }): ThemedPages {
  const cache = new Map<string, { deploymentId: string; shell: ThemedShell | undefined }>();
  return async (projectId) => {
    const live = await opts.m.Deployment.findOne({ project_id: projectId, status: 'deployed', preview_label: null }, { _id: 1 }).sort({ finished_at: -1 }).lean();
    if (!live) return undefined;
    const hit = cache.get(projectId);
    if (hit && hit.deploymentId === live._id) return hit.shell;
    const prefix = sitePrefix(projectId);
    let shell: ThemedShell | undefined;
    try {
      const [page, headers] = await Promise.all([opts.store.get(`${prefix}404.html`), opts.store.get(`${prefix}_headers.json`)]);
      shell = page ? themedShellOf(Buffer.from(page).toString('utf8'), readSiteHeaders(headers)['Content-Security-Policy']) : undefined;
    } catch {
      // The store unreachable: the plain page this time, read again at the next request.
      return undefined;
    }
    cache.delete(projectId);
    if (cache.size >= MAX_SHELLS) cache.delete(cache.keys().next().value!);
    cache.set(projectId, { deploymentId: live._id, shell });
    return shell;
  };
}

