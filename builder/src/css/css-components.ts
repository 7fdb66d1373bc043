/**
 * CSS as the sanitiser (sanitize-css.ts) judges it: tokens made by `@csstools/css-tokenizer`
 * (CSS Syntax Level 3, tested against the spec's cases), grouped into "component values" (CSS
 * Syntax 3, 5.4.7): a token, or a `{}`/`()`/`[]` block or a function with what it encloses.
 *
 * What browsers decode before deciding what a token is is decoded by the tokenizer too: escapes
 * (`\75 rl(` and `u\72l(` are `url(`; `"/\9 /x"` is `/`, tab, `/x`), `url(` with or without
 * quotes, comments between any two tokens, `\` newline continuations in strings. The sanitiser
 * therefore judges a function by its decoded name and its arguments, the values a browser will
 * act on, never the source text; each token keeps its source text, so what is kept is written
 * back exactly as it came.
 */
import { tokenize, TokenType, type CSSToken } from '@csstools/css-tokenizer';

export type CssTokenType =
  | 'ws' | 'comment' | 'string' | 'bad-string' | 'url' | 'bad-url' | 'function' | 'at-keyword' | 'hash'
  | 'ident' | 'number' | 'delim' | ':' | ';' | ',' | '(' | ')' | '[' | ']' | '{' | '}' | 'cdo' | 'cdc';

/**
 * One token: its type, its source text, and (for names, strings and URLs) its decoded value; a
 * delimiter's value is its character, and other tokens' value is `''` (a bad URL has none).
 */
export interface CssToken { type: CssTokenType; raw: string; value: string }

const TYPES: Record<TokenType, CssTokenType | undefined> = {
  [TokenType.Comment]: 'comment',
  [TokenType.AtKeyword]: 'at-keyword',
  [TokenType.BadString]: 'bad-string',
  [TokenType.BadURL]: 'bad-url',
  [TokenType.CDC]: 'cdc',
  [TokenType.CDO]: 'cdo',
  [TokenType.Colon]: ':',
  [TokenType.Comma]: ',',
  [TokenType.Delim]: 'delim',
  [TokenType.Dimension]: 'number',
  [TokenType.EOF]: undefined,
  [TokenType.Function]: 'function',
  [TokenType.Hash]: 'hash',
  [TokenType.Ident]: 'ident',
  [TokenType.Number]: 'number',
  [TokenType.Percentage]: 'number',
  [TokenType.Semicolon]: ';',
  [TokenType.String]: 'string',
  [TokenType.URL]: 'url',
  [TokenType.Whitespace]: 'ws',
  [TokenType.OpenParen]: '(',
  [TokenType.CloseParen]: ')',
  [TokenType.OpenSquare]: '[',
  [TokenType.CloseSquare]: ']',
  [TokenType.OpenCurly]: '{',
  [TokenType.CloseCurly]: '}',
  // Only made with `unicodeRangesAllowed`, which is not set: `U+0-7F` comes as an ident and numbers.
  [TokenType.UnicodeRange]: 'ident',
};

const NAMED = new Set<CssTokenType>(['at-keyword', 'function', 'hash', 'ident', 'string', 'url']);

/** Splits `input` into tokens; their source texts joined give `input` back. */
export function tokenizeCss(input: string): CssToken[] {
  const out: CssToken[] = [];
  for (const token of tokenize({ css: input }) as CSSToken[]) {
    const type = TYPES[token[0]];
    if (!type) continue;
    const data = token[4] as { value?: unknown } | undefined;
    const value = NAMED.has(type) ? String(data?.value ?? '') : type === 'delim' ? token[1] : '';
    out.push({ type, raw: token[1], value });
  }
  return out;
}

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
