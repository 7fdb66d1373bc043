/**
 * The one CSS sanitiser of the platform, with two policies:
 *
 * - **Site CSS** (`sanitizeSiteCss`): a site's custom stylesheet and its Tailwind utilities. It
 *   may style freely and load only from the site itself. Each `url()` / `src()` / `image-set()` /
 *   `-webkit-image-set()` / `image()` / `cross-fade()` whose target is not on the site (see
 *   `urlStaysOnSite`), and every `element()` and `expression()`, is replaced with `none`; every
 *   `@import` is removed (a site's stylesheets are joined into one, so there is nothing to
 *   import), and so are `behavior` and `-moz-binding` declarations.
 * - **SVG CSS** (`sanitizeSvgStylesheet`, `sanitizeSvgDeclarations`, `isSafeSvgCssValue`): the
 *   allow-list of uploaded SVGs. A logo may reference its own document (`url(#id)`), never load
 *   anything: other URLs, image functions, script hooks and every at-rule other than `@media`,
 *   `@supports` and `@keyframes` go, with the declaration or rule holding them.
 *
 * Decisions are made on CSS tokens with escapes decoded (css-components.ts: `u\72l(`, `"/\9 /x"`,
 * `\` newline continuations, comments between tokens), and a URL is judged as a browser's URL
 * parser will read it (leading and trailing control characters and spaces stripped, tabs and
 * newlines removed, `\` read as `/`). What is kept is written back token for token: CSS with
 * nothing to remove comes back as it came.
 */
import { closing, cssText, isToken, meaningful, parseCss, TooDeep, type Component } from './css-components.ts';

/** Where `url()` targets may point. */
export interface UrlPolicy {
  /** Only same-document fragments (`#id`); default false. */
  fragmentsOnly?: boolean;
  /** Absolute `http(s)` URLs on this origin are on the site too (the site's `siteUrl`); default none. */
  siteOrigin?: string;
}

/**
 * Whether a decoded `url()` target stays on the site: a `#fragment`, a root-relative or relative
 * path, a `data:image/…` URI, or an absolute URL on `policy.siteOrigin`. Anything naming another
 * host in any spelling (`//host`, `/\host`, `ht<tab>tp://host`, a leading control character) is not.
 */
export function urlStaysOnSite(value: string, policy: UrlPolicy = {}): boolean {
  // As the URL parser reads it: C0 controls and spaces trimmed, tabs and newlines removed anywhere.
  // eslint-disable-next-line no-control-regex -- the URL standard's "C0 control or space".
  const v = value.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '').replace(/[\t\n\r]/g, '');
  if (v.startsWith('#')) return true;
  if (policy.fragmentsOnly) return false;
  // No legitimate path holds a control character or a backslash (which special URLs read as `/`).
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f\\]/.test(v)) return false;
  if (/^data:/i.test(v)) return /^data:image\//i.test(v);
  if (v.startsWith('//')) return false;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(v)) return true; // a path: it resolves on the site
  if (!policy.siteOrigin) return false;
  try {
    const url = new URL(v);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === policy.siteOrigin;
  } catch {
    return false;
  }
}

/** Functions whose arguments are images or URL strings. */
const IMAGE_FUNCTIONS = new Set(['image-set', '-webkit-image-set', 'image', '-webkit-image', 'cross-fade', '-webkit-cross-fade']);
/** Functions that reference another element or run script: never kept. */
const NEVER_FUNCTIONS = new Set(['element', '-moz-element', 'expression']);
/** Functions whose value is not known when the CSS is read: never kept inside an image function, where a string is a URL. */
const SUBSTITUTIONS = new Set(['var', 'env', 'attr', 'if', 'inherit', 'random-item']);
/** Legacy script hooks, removed as declarations. */
const HOOK_PROPERTIES = new Set(['behavior', '-moz-binding']);

type Fn = Extract<Component, { kind: 'function' }>;
/** The index of the first component from `from` on that is not whitespace or a comment. */
function nextMeaningful(parts: Component[], from: number): number {
  let j = from;
  while (j < parts.length && (isToken(parts[j], 'ws') || isToken(parts[j], 'comment'))) j++;
  return j;
}
const fnName = (c: Fn) => c.token.value.toLowerCase();

/** The target of `url("…")` / `src("…")`: its one string argument, or undefined (e.g. `src(var(--x))`). */
function stringArgument(c: Fn): string | undefined {
  const args = meaningful(c.body);
  return args.length === 1 && isToken(args[0], 'string') ? args[0].token.value : undefined;
}

/** Whether an image function's arguments load only from the site: every string is a URL there. */
function imageArgumentsStay(parts: Component[], policy: UrlPolicy): boolean {
  return parts.every((c) => {
    if (c.kind === 'block') return imageArgumentsStay(c.body, policy);
    if (c.kind === 'function') {
      const name = fnName(c);
      if (name === 'url' || name === 'src') { const target = stringArgument(c); return target !== undefined && urlStaysOnSite(target, policy); }
      if (name === 'type') return true; // image-set's MIME type, not a URL
      if (SUBSTITUTIONS.has(name) || NEVER_FUNCTIONS.has(name)) return false;
      return imageArgumentsStay(c.body, policy);
    }
    const { type, value } = c.token;
    if (type === 'string' || type === 'url') return urlStaysOnSite(value, policy);
    return type !== 'bad-url' && type !== 'bad-string';
  });
}

/** A short description of a removed function: its name and the first target off the site, for the removal message. */
function described(c: Fn, policy: UrlPolicy): string {
  const first = (parts: Component[]): string | undefined => {
    for (const p of parts) {
      if (p.kind === 'token' && (p.token.type === 'string' || p.token.type === 'url') && !urlStaysOnSite(p.token.value, policy)) return p.token.value;
      if (p.kind !== 'token' && !(p.kind === 'function' && fnName(p) === 'type')) { const inner = first(p.body); if (inner !== undefined) return inner; }
    }
    return undefined;
  };
  return `${c.token.value}(${first(c.body)?.slice(0, 200) ?? '…'})`;
}

/** Options of `sanitizeSiteCss`. */
export interface SiteCssOptions {
  /** The site's URL (`siteUrl` of docs.json): absolute URLs on its origin are kept; default none. */
  siteUrl?: string;
}

/** Site CSS with what loads from elsewhere removed, and what was removed (e.g. `url(https://x/p.gif)`, `@import "a.css"`). */
export interface SanitizedCss { css: string; removed: string[] }

/** Applies the site policy (see the module comment) to a stylesheet. Never throws; CSS nested past the limit becomes `''`. */
export function sanitizeSiteCss(css: string, options: SiteCssOptions = {}): SanitizedCss {
  const siteOrigin = (() => { try { return options.siteUrl ? new URL(options.siteUrl).origin : undefined; } catch { return undefined; } })();
  const policy: UrlPolicy = { siteOrigin };
  const removed: string[] = [];
  let changed = false;

  function rewrite(parts: Component[], inBlock: boolean): string {
    const out: string[] = [];
    for (let i = 0; i < parts.length; i++) {
      const c = parts[i];
      if (c.kind === 'block') { out.push(c.open, rewrite(c.body, inBlock || c.open === '{'), closing(c)); continue; }
      if (c.kind === 'function') {
        const name = fnName(c);
        let keep: boolean;
        if (name === 'url' || name === 'src') { const target = stringArgument(c); keep = target !== undefined && urlStaysOnSite(target, policy); }
        else if (IMAGE_FUNCTIONS.has(name)) keep = imageArgumentsStay(c.body, policy);
        else if (NEVER_FUNCTIONS.has(name)) keep = false;
        else { out.push(c.token.raw, rewrite(c.body, inBlock), closing(c)); continue; }
        if (keep) { out.push(cssText([c])); continue; }
        removed.push(described(c, policy));
        changed = true;
        out.push('none');
        continue;
      }
      const { type, value, raw } = c.token;
      if (type === 'url') {
        if (urlStaysOnSite(value, policy)) { out.push(raw); continue; }
        removed.push(`url(${value.slice(0, 200)})`);
      } else if (type === 'bad-url') {
        removed.push(raw.slice(0, 200));
      } else if (type === 'at-keyword' && (value.toLowerCase() === 'import' || value.toLowerCase() === 'namespace')) {
        // Up to the `;` (kept out) or a block (left to what follows, as a browser reads it).
        let j = i + 1;
        while (j < parts.length && !isToken(parts[j], ';') && !(parts[j].kind === 'block' && (parts[j] as { open: string }).open === '{')) j++;
        if (value.toLowerCase() === 'namespace') { out.push(cssText(parts.slice(i, j))); i = j - 1; continue; } // names, never loads
        removed.push(`@import${cssText(parts.slice(i + 1, j)).trimEnd()}`);
        changed = true;
        i = isToken(parts[j], ';') ? j : j - 1;
        continue;
      } else if (inBlock && type === 'ident' && HOOK_PROPERTIES.has(value.toLowerCase()) && isToken(parts[nextMeaningful(parts, i + 1)], ':')) {
        let j = i + 1;
        while (j < parts.length && !isToken(parts[j], ';') && parts[j].kind !== 'block') j++;
        removed.push(`${cssText(parts.slice(i, j)).trim().slice(0, 200)}`);
        changed = true;
        i = isToken(parts[j], ';') ? j : j - 1;
        continue;
      } else {
        out.push(raw);
        continue;
      }
      changed = true;
      out.push('none');
    }
    return out.join('');
  }

  try {
    const out = rewrite(parseCss(css), false);
    return { css: changed ? out : css, removed };
  } catch (err) {
    if (err instanceof TooDeep) return { css: '', removed: ['CSS nested too deeply'] };
    throw err;
  }
}

// --- SVG CSS -------------------------------------------------------------------------------

const SVG_URL_POLICY: UrlPolicy = { fragmentsOnly: true };
const SVG_BLOCKED_FUNCTIONS = new Set([...IMAGE_FUNCTIONS, ...NEVER_FUNCTIONS, 'paint']);
const SVG_KEPT_AT_RULES = new Set(['media', 'supports', 'keyframes', '-webkit-keyframes']);

/** Whether `parts` load nothing and run nothing under the SVG policy. */
function svgSafe(parts: Component[]): boolean {
  return parts.every((c) => {
    if (c.kind === 'block') return svgSafe(c.body);
    if (c.kind === 'function') {
      const fn = fnName(c);
      if (SVG_BLOCKED_FUNCTIONS.has(fn)) return false;
      if (fn === 'url' || fn === 'src') { const target = stringArgument(c); return target !== undefined && urlStaysOnSite(target, SVG_URL_POLICY); }
      return svgSafe(c.body);
    }
    const { type, value } = c.token;
    if (type === 'url') return urlStaysOnSite(value, SVG_URL_POLICY);
    if (type === 'bad-url' || type === 'bad-string' || type === 'at-keyword') return false;
    return !(type === 'ident' && HOOK_PROPERTIES.has(value.toLowerCase()));
  });
}

/** Splits at top-level `;`. */
function split(parts: Component[]): Component[][] {
  const out: Component[][] = [[]];
  for (const c of parts) {
    if (isToken(c, ';')) out.push([]);
    else out[out.length - 1].push(c);
  }
  return out;
}

/** Counts what sanitising removed, so untouched CSS can be returned as it came. */
interface Removed { n: number }

/** Keeps the declarations (`prop: value`) that are safe and hold no nested block. */
function svgDeclarations(parts: Component[], removed: Removed): string {
  const kept = split(parts).filter((decl) => {
    const items = meaningful(decl);
    if (items.length === 0) return false;
    const [prop, colon] = items;
    const ok = isToken(prop, 'ident') && isToken(colon, ':') && !decl.some((c) => c.kind === 'block' && c.open === '{') && svgSafe(decl);
    if (!ok) removed.n++;
    return ok;
  });
  return kept.map((decl) => cssText(decl).trim()).join(';');
}

/** Keeps safe qualified rules and the allowed at-rules, recursively. */
function svgRules(parts: Component[], removed: Removed): string {
  const out: string[] = [];
  let prelude: Component[] = [];
  for (const c of parts) {
    if (isToken(c, 'cdo') || isToken(c, 'cdc')) { removed.n++; continue; }
    if (isToken(c, ';') && prelude.some((p) => isToken(p, 'at-keyword'))) {
      prelude = []; // a statement at-rule (`@import …;`, `@charset …;`): never kept
      removed.n++;
      continue;
    }
    if (!(c.kind === 'block' && c.open === '{')) { prelude.push(c); continue; }
    const head = meaningful(prelude)[0];
    const atRule = isToken(head, 'at-keyword') ? head.token.value.toLowerCase() : undefined;
    const rest = atRule ? prelude.slice(prelude.indexOf(head) + 1) : prelude;
    if (svgSafe(rest) && (atRule === undefined || SVG_KEPT_AT_RULES.has(atRule))) {
      const body = atRule ? svgRules(c.body, removed) : svgDeclarations(c.body, removed);
      out.push(`${cssText(prelude).trim()}{${body}}`);
    } else {
      removed.n++;
    }
    prelude = [];
  }
  if (meaningful(prelude).length > 0) removed.n++; // trailing text without a block
  return out.join('');
}

/** Runs `walk` over `css`; the input itself when nothing was removed, '' when it nests too deep. */
function runSvg(css: string, walk: (parts: Component[], removed: Removed) => string): string {
  const removed = { n: 0 };
  try {
    const out = walk(parseCss(css), removed);
    return removed.n === 0 ? css : out;
  } catch (err) {
    if (err instanceof TooDeep) return '';
    throw err;
  }
}

/** The safe part of an SVG's stylesheet (`<style>` text); '' when nothing is left. */
export function sanitizeSvgStylesheet(css: string): string {
  return runSvg(css, svgRules);
}

/** The safe declarations of an SVG `style` attribute; '' when nothing is left. */
export function sanitizeSvgDeclarations(css: string): string {
  return runSvg(css, svgDeclarations);
}

/** Whether an SVG presentation attribute's value (such as `fill`) loads nothing and runs nothing. */
export function isSafeSvgCssValue(css: string): boolean {
  try { return svgSafe(parseCss(css)); } catch (err) { if (err instanceof TooDeep) return false; throw err; }
}
