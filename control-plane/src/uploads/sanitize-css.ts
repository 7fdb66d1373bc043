/**
 * The CSS allow-list of uploaded SVGs (`<style>` text, `style` attributes, presentation
 * attributes such as `fill`). A logo's CSS may style and reference its own document, never load
 * anything: every `url()` other than a same-document fragment (`url(#id)`), every function that
 * takes an image or a URL string (`image-set()`, `image()`, `cross-fade()`, `element()`), legacy
 * script hooks (`expression()`, `behavior`, `-moz-binding`), and every at-rule other than
 * `@media`, `@supports` and `@keyframes` (so `@import`, `@font-face`, `@namespace` go) are
 * removed with the declaration or rule holding them. What stays is written back token for token
 * (CSS with nothing to remove is returned as it came).
 */
import { tokenizeCss, type CssToken } from '@folio/builder/css/css-tokens.ts';

/** A token, or a block or function with what it encloses (CSS Syntax 3 "component values"). */
type Component =
  | { kind: 'token'; token: CssToken }
  | { kind: 'block'; open: string; body: Component[]; closed: boolean }
  | { kind: 'function'; token: CssToken; body: Component[]; closed: boolean };

/** Deeper nesting than any stylesheet needs: the whole CSS is dropped instead of recursing on. */
const MAX_NESTING = 32;
const CLOSERS: Record<string, string> = { '{': '}', '(': ')', '[': ']' };
const URL_FUNCTIONS = new Set(['url', 'src']);
const BLOCKED_FUNCTIONS = new Set(['image-set', '-webkit-image-set', 'image', 'cross-fade', '-webkit-cross-fade', 'element', '-moz-element', 'expression', 'paint']);
const BLOCKED_NAMES = new Set(['behavior', '-moz-binding']);
const KEPT_AT_RULES = new Set(['media', 'supports', 'keyframes', '-webkit-keyframes']);

class TooDeep extends Error {}

function parse(tokens: CssToken[]): Component[] {
  let i = 0;
  const until = (closer: string, depth: number): { body: Component[]; closed: boolean } => {
    if (depth > MAX_NESTING) throw new TooDeep();
    const body: Component[] = [];
    while (i < tokens.length) {
      const token = tokens[i++];
      if (token.type === closer) return { body, closed: true };
      if (token.type === '{' || token.type === '(' || token.type === '[') {
        body.push({ kind: 'block', open: token.type, ...until(CLOSERS[token.type], depth + 1) });
      } else if (token.type === 'function') {
        body.push({ kind: 'function', token, ...until(')', depth + 1) });
      } else {
        body.push({ kind: 'token', token });
      }
    }
    return { body, closed: false };
  };
  return until('', 0).body;
}

function text(parts: Component[]): string {
  return parts.map((c) => {
    if (c.kind === 'token') return c.token.raw;
    const inner = text(c.body) + (c.closed ? (c.kind === 'block' ? CLOSERS[c.open] : ')') : '');
    return (c.kind === 'block' ? c.open : c.token.raw) + inner;
  }).join('');
}

const meaningful = (parts: Component[]) => parts.filter((c) => c.kind !== 'token' || (c.token.type !== 'ws' && c.token.type !== 'comment'));
const isFragment = (value: string) => value.trim().startsWith('#');

/** Whether `parts` load nothing and run nothing (see the module comment). */
function safe(parts: Component[]): boolean {
  return parts.every((c) => {
    if (c.kind === 'block') return safe(c.body);
    if (c.kind === 'function') {
      const fn = c.token.value.toLowerCase();
      if (BLOCKED_FUNCTIONS.has(fn)) return false;
      if (URL_FUNCTIONS.has(fn)) {
        const args = meaningful(c.body);
        return args.length === 1 && args[0].kind === 'token' && args[0].token.type === 'string' && isFragment(args[0].token.value);
      }
      return safe(c.body);
    }
    const { type, value } = c.token;
    if (type === 'url') return isFragment(value);
    if (type === 'bad-url' || type === 'bad-string' || type === 'at-keyword') return false;
    return !(type === 'ident' && BLOCKED_NAMES.has(value.toLowerCase()));
  });
}

/** Splits at top-level `;`. */
function split(parts: Component[]): Component[][] {
  const out: Component[][] = [[]];
  for (const c of parts) {
    if (c.kind === 'token' && c.token.type === ';') out.push([]);
    else out[out.length - 1].push(c);
  }
  return out;
}

/** Counts what sanitising removed, so untouched CSS can be returned as it came. */
interface Removed { n: number }

/** Keeps the declarations (`prop: value`) that are safe and hold no nested block. */
function declarations(parts: Component[], removed: Removed): string {
  const kept = split(parts).filter((decl) => {
    const items = meaningful(decl);
    if (items.length === 0) return false;
    const [prop, colon] = items;
    const ok = prop.kind === 'token' && prop.token.type === 'ident' && colon?.kind === 'token' && colon.token.type === ':'
      && !decl.some((c) => c.kind === 'block' && c.open === '{') && safe(decl);
    if (!ok) removed.n++;
    return ok;
  });
  return kept.map((decl) => text(decl).trim()).join(';');
}

/** Keeps safe qualified rules and the allowed at-rules, recursively. */
function rules(parts: Component[], removed: Removed): string {
  const out: string[] = [];
  let prelude: Component[] = [];
  for (const c of parts) {
    if (c.kind === 'token' && (c.token.type === 'cdo' || c.token.type === 'cdc')) { removed.n++; continue; }
    if (c.kind === 'token' && c.token.type === ';' && prelude.some((p) => p.kind === 'token' && p.token.type === 'at-keyword')) {
      prelude = []; // a statement at-rule (`@import …;`, `@charset …;`): never kept
      removed.n++;
      continue;
    }
    if (!(c.kind === 'block' && c.open === '{')) { prelude.push(c); continue; }
    const head = meaningful(prelude)[0];
    const atRule = head?.kind === 'token' && head.token.type === 'at-keyword' ? head.token.value.toLowerCase() : undefined;
    const rest = atRule ? prelude.slice(prelude.indexOf(head) + 1) : prelude;
    if (safe(rest) && (atRule === undefined || KEPT_AT_RULES.has(atRule))) {
      const body = atRule ? rules(c.body, removed) : declarations(c.body, removed);
      out.push(`${text(prelude).trim()}{${body}}`);
    } else {
      removed.n++;
    }
    prelude = [];
  }
  if (meaningful(prelude).length > 0) removed.n++; // trailing text without a block
  return out.join('');
}

/** Runs `walk` over `css`; the input itself when nothing was removed, '' when it nests too deep. */
function run(css: string, walk: (parts: Component[], removed: Removed) => string): string {
  const removed = { n: 0 };
  try {
    const out = walk(parse(tokenizeCss(css)), removed);
    return removed.n === 0 ? css : out;
  } catch (err) {
    if (err instanceof TooDeep) return '';
    throw err;
  }
}

/** The safe part of a stylesheet (`<style>` text); '' when nothing is left. */
export function sanitizeStylesheet(css: string): string {
  return run(css, rules);
}

/** The safe declarations of a `style` attribute; '' when nothing is left. */
export function sanitizeDeclarations(css: string): string {
  return run(css, declarations);
}

/** Whether a CSS value (a presentation attribute such as `fill`) loads nothing and runs nothing. */
export function isSafeCssValue(css: string): boolean {
  try { return safe(parse(tokenizeCss(css))); } catch (err) { if (err instanceof TooDeep) return false; throw err; }
}
