/**
 * Turns schema failures into one readable `invalid_request` line naming the field and the rule,
 * in the house form "Unexpected X; expected Y".
 */
import type { ZodType, core } from 'zod';
import { AppError, invalid } from '../errors.ts';

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

/**
 * Refuses `$`-operator and prototype keys anywhere in a JSON body, so no client-supplied
 * operator can ever reach a database query, whatever a schema lets through.
 */
export function assertPlainJson(value: unknown, path: string[] = []): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => assertPlainJson(v, [...path, String(i)]));
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      if (key.startsWith('$') || FORBIDDEN_KEYS.has(key)) {
        throw new AppError(400, 'invalid_request', `${[...path, key].join('.')}: Unexpected key; operator and prototype keys are not allowed`);
      }
      assertPlainJson((value as Record<string, unknown>)[key], [...path, key]);
    }
  }
}
