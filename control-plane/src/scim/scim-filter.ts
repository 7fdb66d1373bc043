/**
 * SCIM filters and attribute paths (RFC 7644 sections 3.4.2.2 and 3.5.2): parsed here and
 * evaluated against resources as JSON. scimmy's parser was tried first, but it rewrites
 * `not (a and b)` as `not a and not b`, and matches case-sensitively, so this module owns both.
 *
 * - Operators `eq ne co sw ew pr gt ge lt le`, `and`, `or`, `not (…)`, parentheses, and value
 *   filters `emails[type eq "work" and value co "@"]`; keywords in any case.
 * - Strings compare case-insensitively except attributes that are case-exact (`id`,
 *   `externalId`, `meta.version`, `members.value`, `groups.value`).
 * - `meta.created` and `meta.lastModified` compare as instants (`gt "2026-11-29T00:00:00Z"`).
 * - A complex multi-valued attribute compared directly compares its `value` sub-attribute.
 */
import { scimError } from './scim-errors.ts';

export type FilterNode =
  | { type: 'and' | 'or'; left: FilterNode; right: FilterNode }
  | { type: 'not'; expr: FilterNode }
  | { type: 'compare'; path: string[]; op: CompareOp; value: unknown }
  | { type: 'present'; path: string[] }
  | { type: 'valuePath'; path: string[]; filter: FilterNode };

type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
const COMPARE_OPS = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);

/** Schema URNs whose attributes are addressed without the prefix. */
const CORE_URNS = ['urn:ietf:params:scim:schemas:core:2.0:user', 'urn:ietf:params:scim:schemas:core:2.0:group'];
/** Attributes compared case-exactly (dotted, lower-case). */
const CASE_EXACT = new Set(['id', 'externalid', 'meta.version', 'members.value', 'groups.value', 'meta.location']);
const DATE_ATTRS = new Set(['meta.created', 'meta.lastmodified']);

const invalidFilter = (detail: string) => scimError(400, 'invalidFilter', detail);

type Token = { kind: 'word' | 'string' | '(' | ')' | '[' | ']'; text: string; value?: unknown };

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') { i++; continue; }
    if ('()[]'.includes(c)) { tokens.push({ kind: c as Token['kind'], text: c }); i++; continue; }
    if (c === '"') {
      let j = i + 1;
      while (j < input.length && input[j] !== '"') j += input[j] === '\\' ? 2 : 1;
      if (j >= input.length) throw invalidFilter(`Unterminated string at character ${i + 1}`);
      const raw = input.slice(i, j + 1);
      let value: string;
      try { value = JSON.parse(raw) as string; } catch { throw invalidFilter(`Malformed string ${raw.slice(0, 40)}`); }
      tokens.push({ kind: 'string', text: raw, value });
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < input.length && !' \t\n\r()[]"'.includes(input[j])) j++;
    tokens.push({ kind: 'word', text: input.slice(i, j) });
    i = j;
  }
  return tokens;
}

/** Splits `urn:…:User:name.givenName` or `name.givenName` into lower-cased segments (URN kept for extensions). */
export function splitAttrPath(text: string): string[] {
  let rest = text;
  let urn: string | undefined;
  if (/^urn:/i.test(text)) {
    const lower = text.toLowerCase();
    const core = CORE_URNS.find((u) => lower.startsWith(`${u}:`));
    if (core) rest = text.slice(core.length + 1);
    else {
      const at = text.lastIndexOf(':');
      urn = text.slice(0, at).toLowerCase();
      rest = text.slice(at + 1);
    }
  }
  if (!/^[A-Za-z$][\w$-]*(\.[A-Za-z$][\w$-]*)?$/.test(rest)) throw invalidFilter(`Unexpected attribute ${JSON.stringify(text.slice(0, 80))}`);
  const parts = rest.toLowerCase().split('.');
  return urn ? [urn, ...parts] : parts;
}

class Parser {
  private pos = 0;
  private readonly tokens: Token[];
  private readonly source: string;
  constructor(tokens: Token[], source: string) {
    this.tokens = tokens;
    this.source = source;
  }

  parse(): FilterNode {
    if (!this.tokens.length) throw invalidFilter('Empty filter');
    const node = this.or();
    if (this.pos < this.tokens.length) throw invalidFilter(`Unexpected ${JSON.stringify(this.tokens[this.pos].text)} in filter ${JSON.stringify(this.source.slice(0, 200))}`);
    return node;
  }

  private peekWord(): string | undefined {
    const t = this.tokens[this.pos];
    return t?.kind === 'word' ? t.text.toLowerCase() : undefined;
  }

  private expect(kind: Token['kind']): void {
    const t = this.tokens[this.pos];
    if (t?.kind !== kind) throw invalidFilter(`Expected "${kind}" ${t ? `before ${JSON.stringify(t.text)}` : 'at the end of the filter'}`);
    this.pos++;
  }

  private or(): FilterNode {
    let left = this.and();
    while (this.peekWord() === 'or') { this.pos++; left = { type: 'or', left, right: this.and() }; }
    return left;
  }

  private and(): FilterNode {
    let left = this.unary();
    while (this.peekWord() === 'and') { this.pos++; left = { type: 'and', left, right: this.unary() }; }
    return left;
  }

  private unary(): FilterNode {
    const t = this.tokens[this.pos];
    if (!t) throw invalidFilter('Unexpected end of filter; expected an expression');
    if (t.kind === 'word' && t.text.toLowerCase() === 'not') {
      this.pos++;
      this.expect('(');
      const expr = this.or();
      this.expect(')');
      return { type: 'not', expr };
    }
    if (t.kind === '(') {
      this.pos++;
      const expr = this.or();
      this.expect(')');
      return expr;
    }
    if (t.kind !== 'word') throw invalidFilter(`Unexpected ${JSON.stringify(t.text)}; expected an attribute name`);
    this.pos++;
    const path = splitAttrPath(t.text);
    if (this.tokens[this.pos]?.kind === '[') {
      this.pos++;
      const filter = this.or();
      this.expect(']');
      return { type: 'valuePath', path, filter };
    }
    const op = this.peekWord();
    if (!op) throw invalidFilter(`Expected an operator after ${JSON.stringify(t.text)}`);
    this.pos++;
    if (op === 'pr') return { type: 'present', path };
    if (!COMPARE_OPS.has(op)) throw invalidFilter(`Unexpected operator ${JSON.stringify(op)}; expected eq, ne, co, sw, ew, gt, ge, lt, le or pr`);
    const v = this.tokens[this.pos];
    if (!v || (v.kind !== 'string' && v.kind !== 'word')) throw invalidFilter(`Expected a value after ${JSON.stringify(`${t.text} ${op}`)}`);
    this.pos++;
    let value: unknown;
    if (v.kind === 'string') value = v.value;
    else if (/^(true|false|null)$/i.test(v.text)) value = JSON.parse(v.text.toLowerCase());
    else if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(v.text)) value = Number(v.text);
    else throw invalidFilter(`Unexpected value ${JSON.stringify(v.text.slice(0, 40))}; expected a quoted string, number, true, false or null`);
    return { type: 'compare', path, op: op as CompareOp, value };
  }
}

/** Parses a SCIM filter; throws 400 `invalidFilter`. */
export function parseFilter(input: string): FilterNode {
  if (input.length > 2_000) throw invalidFilter('The filter is over 2000 characters');
  return new Parser(tokenize(input), input).parse();
}

/** A PATCH path: `attr`, `attr.sub`, `attr[filter]`, `attr[filter].sub`, URN-prefixed or not. */
export interface PatchPath { attr: string[]; filter?: FilterNode; sub?: string }

/** Parses a PATCH `path`; throws 400 `invalidPath`. */
export function parsePatchPath(input: string): PatchPath {
  try {
    const open = input.indexOf('[');
    if (open < 0) return { attr: splitAttrPath(input.trim()) };
    const close = input.lastIndexOf(']');
    if (close < open) throw invalidFilter('Unbalanced "["');
    const attr = splitAttrPath(input.slice(0, open).trim());
    const filter = parseFilter(input.slice(open + 1, close));
    const tail = input.slice(close + 1).trim();
    if (tail && !/^\.[A-Za-z$][\w$-]*$/.test(tail)) throw invalidFilter(`Unexpected ${JSON.stringify(tail)} after "]"`);
    return { attr, filter, ...(tail ? { sub: tail.slice(1).toLowerCase() } : {}) };
  } catch (err) {
    const detail = (err as { message?: string }).message ?? 'Malformed path';
    throw scimError(400, 'invalidPath', `path: ${detail}`);
  }
}

/** The values at a lower-cased `path` in `obj`, multi-valued attributes flattened. */
export function valuesAt(obj: unknown, path: string[]): unknown[] {
  let current: unknown[] = [obj];
  for (const seg of path) {
    const next: unknown[] = [];
    for (const item of current) {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
      const key = Object.keys(item).find((k) => k.toLowerCase() === seg);
      if (key === undefined) continue;
      const v = (item as Record<string, unknown>)[key];
      if (Array.isArray(v)) next.push(...v);
      else if (v !== undefined && v !== null) next.push(v);
    }
    current = next;
  }
  return current;
}

function asInstant(value: unknown, what: string): number {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw invalidFilter(`${what}: Unexpected ${JSON.stringify(value)}; expected a date-time such as "2026-11-29T00:00:00Z"`);
  return ms;
}

function compareOne(actual: unknown, op: CompareOp, expected: unknown, dotted: string): boolean {
  if (actual !== null && typeof actual === 'object' && !Array.isArray(actual)) {
    // A complex value compared directly: its "value" sub-attribute.
    return compareOne(valuesAt(actual, ['value'])[0], op, expected, `${dotted}.value`);
  }
  if (DATE_ATTRS.has(dotted) && op !== 'co' && op !== 'sw' && op !== 'ew') {
    const a = asInstant(actual, dotted);
    const e = asInstant(expected, dotted);
    return op === 'eq' ? a === e : op === 'ne' ? a !== e : op === 'gt' ? a > e : op === 'ge' ? a >= e : op === 'lt' ? a < e : a <= e;
  }
  if (typeof expected === 'boolean' || expected === null) {
    if (op !== 'eq' && op !== 'ne') throw invalidFilter(`${dotted}: ${op} does not apply to ${JSON.stringify(expected)}`);
    return op === 'eq' ? actual === expected : actual !== expected;
  }
  if (typeof expected === 'number') {
    if (typeof actual !== 'number') return op === 'ne';
    return op === 'eq' ? actual === expected : op === 'ne' ? actual !== expected : op === 'gt' ? actual > expected : op === 'ge' ? actual >= expected : op === 'lt' ? actual < expected : op === 'le' ? actual <= expected : false;
  }
  if (typeof actual !== 'string') return op === 'ne';
  const exact = CASE_EXACT.has(dotted);
  const a = exact ? actual : actual.toLowerCase();
  const e = exact ? String(expected) : String(expected).toLowerCase();
  switch (op) {
    case 'eq': return a === e;
    case 'ne': return a !== e;
    case 'co': return a.includes(e);
    case 'sw': return a.startsWith(e);
    case 'ew': return a.endsWith(e);
    case 'gt': return a > e;
    case 'ge': return a >= e;
    case 'lt': return a < e;
    case 'le': return a <= e;
  }
}

function present(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** Whether `resource` (SCIM JSON) matches `node`; `prefix` is the path of a value filter's element. */
export function matches(resource: unknown, node: FilterNode, prefix: string[] = []): boolean {
  switch (node.type) {
    case 'and': return matches(resource, node.left, prefix) && matches(resource, node.right, prefix);
    case 'or': return matches(resource, node.left, prefix) || matches(resource, node.right, prefix);
    case 'not': return !matches(resource, node.expr, prefix);
    case 'present': return valuesAt(resource, node.path).some(present);
    case 'valuePath': return valuesAt(resource, node.path).some((el) => matches(el, node.filter, [...prefix, ...node.path]));
    case 'compare': {
      const dotted = [...prefix, ...node.path].join('.');
      const values = valuesAt(resource, node.path);
      if (node.value === null) return node.op === 'eq' ? !values.some(present) : values.some(present);
      // "ne" holds when no value equals (a missing attribute included).
      if (node.op === 'ne') return !values.some((v) => compareOne(v, 'eq', node.value, dotted));
      return values.some((v) => compareOne(v, node.op, node.value, dotted));
    }
  }
}
