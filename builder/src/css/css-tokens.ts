/**
 * CSS tokens for the CSS sanitiser (sanitize-css.ts), made by `@csstools/css-tokenizer`, a
 * tokenizer that follows CSS Syntax Level 3 and is tested against the spec's cases. What
 * browsers decode before deciding what a token is is decoded here too: escapes (`\75 rl(` and
 * `u\72l(` are `url(`; `"/\9 /x"` is `/`, tab, `/x`), `url(` with or without quotes, comments
 * between any two tokens, `\` newline continuations in strings. The sanitiser therefore judges
 * the values a browser will act on, never the source text. Each token keeps its source text, so
 * what is kept is written back exactly as it came.
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
