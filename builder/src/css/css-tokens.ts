/**
 * A CSS tokenizer following CSS Syntax Level 3 (section 4), for the SVG sanitiser's CSS
 * allow-list (control plane) and the custom CSS sanitiser (custom-css.ts). It decodes what
 * browsers decode before deciding what a token is — escapes
 * (`\75 rl(` is `url(`), `url(` with or without quotes, comments between any two tokens — so the
 * sanitiser judges the same tokens a browser will act on. Each token keeps its source text, so
 * what is kept is written back exactly as it came.
 */

export type CssTokenType =
  | 'ws' | 'comment' | 'string' | 'bad-string' | 'url' | 'bad-url' | 'function' | 'at-keyword' | 'hash'
  | 'ident' | 'number' | 'delim' | ':' | ';' | ',' | '(' | ')' | '[' | ']' | '{' | '}' | 'cdo' | 'cdc';

/** One token: its type, its source text, and (for names, strings and URLs) its decoded value. */
export interface CssToken { type: CssTokenType; raw: string; value: string }

const isDigit = (c: string) => c >= '0' && c <= '9';
const isHex = (c: string) => /^[0-9a-fA-F]$/.test(c);
const isNameStart = (c: string) => /^[A-Za-z_]$/.test(c) || (c !== '' && c.charCodeAt(0) >= 0x80);
const isName = (c: string) => isNameStart(c) || isDigit(c) || c === '-';
const isWs = (c: string) => c === ' ' || c === '\t' || c === '\n';
// eslint-disable-next-line no-control-regex -- the spec's "non-printable code points".
const isNonPrintable = (c: string) => /^[\x00-\x08\x0b\x0e-\x1f\x7f]$/.test(c);
const validEscape = (a: string, b: string) => a === '\\' && b !== '\n' && b !== '';
const SINGLES = new Set([':', ';', ',', '(', ')', '[', ']', '{', '}']);

/** Splits `input` into tokens (newline forms and NUL normalised first, as the spec preprocesses). */
export function tokenizeCss(input: string): CssToken[] {
  const s = input.replace(/\r\n?|\f/g, '\n').replace(/\0/g, '\uFFFD');
  const at = (i: number) => (i < s.length ? s[i] : '');
  let i = 0;
  const tokens: CssToken[] = [];

  /** Decodes the escape whose backslash is at i - 1; advances past it. */
  function escape(): string {
    const c = at(i);
    if (c === '') return '\uFFFD';
    if (!isHex(c)) { i++; return c; }
    let hex = '';
    while (hex.length < 6 && isHex(at(i))) hex += s[i++];
    if (isWs(at(i))) i++;
    const cp = parseInt(hex, 16);
    return cp === 0 || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ? '\uFFFD' : String.fromCodePoint(cp);
  }
  function name(): string {
    let out = '';
    for (;;) {
      const c = at(i);
      if (isName(c)) { out += c; i++; } else if (validEscape(c, at(i + 1))) { i++; out += escape(); } else return out;
    }
  }
  const startsIdent = (j: number) => {
    const [a, b, c] = [at(j), at(j + 1), at(j + 2)];
    if (a === '-') return isNameStart(b) || b === '-' || validEscape(b, c);
    return isNameStart(a) || validEscape(a, b);
  };
  const startsNumber = (j: number) => {
    const [a, b, c] = [at(j), at(j + 1), at(j + 2)];
    if (a === '+' || a === '-') return isDigit(b) || (b === '.' && isDigit(c));
    return isDigit(a) || (a === '.' && isDigit(b));
  };
  function badUrlRemnants(): void {
    while (i < s.length && s[i] !== ')') {
      if (validEscape(s[i], at(i + 1))) { i++; escape(); } else i++;
    }
    if (i < s.length) i++;
  }
  function url(start: number): CssToken {
    let value = '';
    while (isWs(at(i))) i++;
    for (;;) {
      const c = at(i);
      if (c === ')' || c === '') { if (c) i++; return { type: 'url', raw: s.slice(start, i), value }; }
      if (isWs(c)) {
        while (isWs(at(i))) i++;
        if (at(i) === ')' || at(i) === '') continue;
        badUrlRemnants();
        return { type: 'bad-url', raw: s.slice(start, i), value };
      }
      if (c === '"' || c === '\'' || c === '(' || isNonPrintable(c) || (c === '\\' && !validEscape(c, at(i + 1)))) {
        badUrlRemnants();
        return { type: 'bad-url', raw: s.slice(start, i), value };
      }
      i++;
      value += c === '\\' ? escape() : c;
    }
  }
  function identLike(start: number): CssToken {
    const value = name();
    if (value.toLowerCase() === 'url' && at(i) === '(') {
      i++;
      let j = i;
      while (isWs(at(j))) j++;
      if (at(j) === '"' || at(j) === '\'') return { type: 'function', raw: s.slice(start, i), value };
      return url(start);
    }
    if (at(i) === '(') { i++; return { type: 'function', raw: s.slice(start, i), value }; }
    return { type: 'ident', raw: s.slice(start, i), value };
  }
  function string(quote: string, start: number): CssToken {
    let value = '';
    for (;;) {
      const c = at(i);
      if (c === quote || c === '') { if (c) i++; return { type: 'string', raw: s.slice(start, i), value }; }
      if (c === '\n') return { type: 'bad-string', raw: s.slice(start, i), value };
      i++;
      if (c !== '\\') value += c;
      else if (at(i) === '\n') i++;
      else if (at(i) !== '') value += escape();
    }
  }
  function numeric(start: number): CssToken {
    const m = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(s.slice(i, i + 400))!;
    i += m[0].length;
    if (startsIdent(i)) name();
    else if (at(i) === '%') i++;
    return { type: 'number', raw: s.slice(start, i), value: '' };
  }

  while (i < s.length) {
    const start = i;
    const c = s[i];
    if (c === '/' && at(i + 1) === '*') {
      const end = s.indexOf('*/', i + 2);
      i = end < 0 ? s.length : end + 2;
      tokens.push({ type: 'comment', raw: s.slice(start, i), value: '' });
    } else if (isWs(c)) {
      while (isWs(at(i))) i++;
      tokens.push({ type: 'ws', raw: s.slice(start, i), value: '' });
    } else if (c === '"' || c === '\'') {
      i++;
      tokens.push(string(c, start));
    } else if (c === '#' && (isName(at(i + 1)) || validEscape(at(i + 1), at(i + 2)))) {
      i++;
      const value = name();
      tokens.push({ type: 'hash', raw: s.slice(start, i), value });
    } else if (SINGLES.has(c)) {
      i++;
      tokens.push({ type: c as CssTokenType, raw: c, value: '' });
    } else if (startsNumber(i)) {
      tokens.push(numeric(start));
    } else if (c === '-' && at(i + 1) === '-' && at(i + 2) === '>') {
      i += 3;
      tokens.push({ type: 'cdc', raw: '-->', value: '' });
    } else if (c === '<' && s.startsWith('!--', i + 1)) {
      i += 4;
      tokens.push({ type: 'cdo', raw: '<!--', value: '' });
    } else if (c === '@' && startsIdent(i + 1)) {
      i++;
      const value = name();
      tokens.push({ type: 'at-keyword', raw: s.slice(start, i), value });
    } else if (startsIdent(i)) {
      tokens.push(identLike(start));
    } else {
      i += c.codePointAt(0)! > 0xffff ? 2 : 1;
      tokens.push({ type: 'delim', raw: s.slice(start, i), value: s.slice(start, i) });
    }
  }
  return tokens;
}
