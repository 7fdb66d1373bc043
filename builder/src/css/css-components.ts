/**
 * CSS tokens grouped into "component values" (CSS Syntax 3, 5.4.7): a token, or a `{}`/`()`/`[]`
 * block or a function with what it encloses. The sanitiser (sanitize-css.ts) judges a
 * function by its decoded name and its arguments, and writes back what it keeps from the tokens'
 * source text.
 */
import { tokenizeCss, type CssToken } from './css-tokens.ts';

/** A token, or a block or function with what it encloses. */
export type Component =
  | { kind: 'token'; token: CssToken }
  | { kind: 'block'; open: string; body: Component[]; closed: boolean }
  | { kind: 'function'; token: CssToken; body: Component[]; closed: boolean };

/** Deeper nesting than any stylesheet needs: callers drop the whole CSS instead of recursing on. */
export const MAX_NESTING = 32;

/** Thrown by `parseCss` when blocks nest deeper than `MAX_NESTING`. */
export class TooDeep extends Error {}

export const CLOSERS: Record<string, string> = { '{': '}', '(': ')', '[': ']' };

/** The component values of `css`; throws `TooDeep` past `MAX_NESTING` levels. */
export function parseCss(css: string): Component[] {
  const tokens = tokenizeCss(css);
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

/** The source text of `parts`, as it came. */
export function cssText(parts: Component[]): string {
  return parts.map((c) => {
    if (c.kind === 'token') return c.token.raw;
    return (c.kind === 'block' ? c.open : c.token.raw) + cssText(c.body) + closing(c);
  }).join('');
}

/** The closing `)`, `]` or `}` of a block or function, `''` when the source ended first. */
export function closing(c: Exclude<Component, { kind: 'token' }>): string {
  if (!c.closed) return '';
  return c.kind === 'block' ? CLOSERS[c.open] : ')';
}

/** `parts` without whitespace and comments. */
export const meaningful = (parts: Component[]) => parts.filter((c) => c.kind !== 'token' || (c.token.type !== 'ws' && c.token.type !== 'comment'));

/** Whether `c` is the token of type `type` (and, given, of decoded value `value`, any case). */
export const isToken = (c: Component | undefined, type: CssToken['type'], value?: string): c is { kind: 'token'; token: CssToken } =>
  c?.kind === 'token' && c.token.type === type && (value === undefined || c.token.value.toLowerCase() === value);
