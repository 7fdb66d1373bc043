/**
 * Turns schema failures into one readable `invalid_request` line naming the field and the rule,
 * in the house form "Unexpected X; expected Y".
 */
import type { ZodType, core } from 'zod';
import { invalid } from '../errors.ts';
import { MAX_JSON_DEPTH } from './limits.ts';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v: any = input;
  for (const p of path) v = v == null ? undefined : v[p as any];
  return v;
}

/** One line for one schema issue. */
export function issueMessage(issue: core.$ZodIssue, input: unknown): { field: string; rule: string } {
  const field = issue.path.map(String).join('.');
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return { field: [field, issue.keys[0]].filter(Boolean).join('.'), rule: 'Unexpected key' };
    case 'invalid_type':
      if (value === undefined) return { field, rule: 'Required' };
      // A schema's own message (e.g. "must be an integer from 1 to 100") beats the generic one.
      if (!issue.message.startsWith('Invalid input')) return { field, rule: issue.message };
      return { field, rule: `Unexpected ${describe(value)}; expected ${issue.expected}` };
    default:
      return { field, rule: issue.message };
  }
}

/** Parses `input` with `schema`, or throws 400 naming the first problem. */
export function validate<T>(schema: ZodType<T>, input: unknown, where: string): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { field, rule } = issueMessage(result.error.issues[0], input);
  throw invalid(field || where, rule);
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The rule a too deeply nested body breaks, as the error message states it. */
export const DEPTH_RULE = `Unexpected nesting deeper than ${MAX_JSON_DEPTH} levels; expected JSON nested at most ${MAX_JSON_DEPTH} deep`;

/** A value still to visit, with how it was reached (kept as links, so paths cost nothing until reported). */
interface Pending { value: unknown; depth: number; key?: string; parent?: Pending }

function pathOf(p: Pending): string {
  const keys: string[] = [];
  for (let at: Pending | undefined = p; at?.key !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

/**
 * Refuses `$`-operator and prototype keys anywhere in a JSON body, so no client-supplied
 * operator can ever reach a database query, whatever a schema lets through; and refuses bodies
 * nested deeper than {@link MAX_JSON_DEPTH}. The walk is iterative: a body nested thousands of
 * levels deep (a few kilobytes of `[`) is a 400, not a stack overflow. `allow` lets through
 * `$`-keys a format defines (SCIM's `$ref`), for bodies whose values never become queries.
 */
export function assertPlainJson(value: unknown, allow?: ReadonlySet<string>): void {
  // Depth-first in document order (children pushed in reverse), so the first offending key of
  // the body is the one reported.
  const stack: Pending[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (at.key !== undefined && at.parent && !Array.isArray(at.parent.value) && ((at.key.startsWith('$') && !allow?.has(at.key)) || FORBIDDEN_KEYS.has(at.key))) {
      throw invalid(pathOf(at), 'Unexpected key; operator and prototype keys are not allowed');
    }
    if (at.value === null || typeof at.value !== 'object') continue;
    if (at.depth >= MAX_JSON_DEPTH) throw invalid('body', DEPTH_RULE);
    const entries: [string, unknown][] = Array.isArray(at.value) ? at.value.map((v, i) => [String(i), v]) : Object.entries(at.value);
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], depth: at.depth + 1, key: entries[i][0], parent: at });
  }
}
