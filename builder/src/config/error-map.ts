/**
 * Turns zod issues into the one-line messages customers read in their build log:
 * `docs.json: <path>: <rule>`, where the rule reads "Unexpected X; expected Y" and names
 * the field (the same approach as Astro Starlight's `utils/error-map.ts`).
 */
import type { z } from 'zod';

/** How a value reads inside a message: strings quoted, containers by kind. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'array';
  if (value !== null && typeof value === 'object') return 'object';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? value.slice(0, 57) + '...' : value);
  return String(value);
}

/**
 * Schema-level error builder for rules zod cannot describe by itself (patterns, refinements):
 * `expected('# followed by six hex digits')` reads `Unexpected "#12345"; expected # followed by …`.
 */
export function expected(what: string): (issue: { input?: unknown }) => string {
  return (issue) => `Unexpected ${describeValue(issue.input)}; expected ${what}`;
}

const typeNames: Record<string, string> = { record: 'object', map: 'object', int: 'integer' };

/**
 * The per-parse zod error map. Unknown-key issues return only the accepted keys: the formatter
 * knows the full path of the object and writes the sentence (see {@link formatIssues}).
 */
export const errorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'Required';
      return `Unexpected ${describeValue(issue.input)}; expected ${typeNames[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return `Unexpected ${describeValue(issue.input)}; expected ${issue.values.length === 1 ? String(issue.values[0]) : 'one of ' + issue.values.join(', ')}`;
    case 'unrecognized_keys': {
      const shape = (issue.inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def?.shape;
      return Object.keys(shape ?? {}).join(', ');
    }
    case 'too_small':
      if (issue.origin === 'string') return `Unexpected ${describeValue(issue.input)}; expected a non-empty string`;
      if (issue.origin === 'array') return `Unexpected ${Array.isArray(issue.input) ? issue.input.length : 0} items; expected at least ${issue.minimum}`;
      return `Unexpected ${describeValue(issue.input)}; expected at least ${issue.minimum}`;
    case 'too_big':
      return `Unexpected ${describeValue(issue.input)}; expected at most ${issue.maximum}`;
    case 'invalid_format':
      if (issue.format === 'url') return `Unexpected ${describeValue(issue.input)}; expected a URL`;
      return `Unexpected ${describeValue(issue.input)}; expected ${issue.pattern ? 'a string matching ' + issue.pattern : issue.format}`;
    case 'invalid_union':
      return `Unexpected ${describeValue(issue.input)}; expected one of the allowed shapes`;
    default:
      return `Unexpected ${describeValue(issue.input)}`;
  }
};

/** `navbar.links[0].label` from a zod path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += (out ? '.' : '') + String(key);
  }
  return out;
}

/** Most problems listed at once; the rest are counted in one last line. */
export const MAX_PROBLEM_LINES = 100;

/**
 * The first {@link MAX_PROBLEM_LINES} lines, then `docs.json: …and N more` when there are more: a
 * list of thousands of bad entries would bury the log, and the first ones are fixed first.
 */
export function capProblems(lines: readonly string[], file = 'docs.json'): string[] {
  return lines.length > MAX_PROBLEM_LINES ? [...lines.slice(0, MAX_PROBLEM_LINES), `${file}: …and ${lines.length - MAX_PROBLEM_LINES} more`] : [...lines];
}

type Issue = z.core.$ZodIssue;

function isRootTypeMiss(issue: Issue): boolean {
  return issue.path.length === 0 && (issue.code === 'invalid_type' || issue.code === 'invalid_union');
}

/**
 * One line per problem, in the order zod found them. Unions report the branch the value was
 * evidently meant for (the one whose errors are not "wrong type at the root"); an unknown key
 * becomes one line per key, at the key's own path.
 */
export function formatIssues(issues: readonly Issue[], file = 'docs.json', prefix: readonly PropertyKey[] = []): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union') {
      const branch = issue.errors.find((errors) => errors.length > 0 && !errors.every(isRootTypeMiss));
      if (branch) {
        lines.push(...formatIssues(branch, file, path));
        continue;
      }
    }
    if (issue.code === 'unrecognized_keys') {
      const owner = path.length ? formatPath(path) : file;
      for (const key of issue.keys) lines.push(`${file}: ${formatPath([...path, key])}: Unexpected key; ${owner} accepts ${issue.message}`);
      continue;
    }
    lines.push(path.length ? `${file}: ${formatPath(path)}: ${issue.message}` : `${file}: ${issue.message}`);
  }
  return lines;
}
