/**
 * The problems of a `docs.json` text for an editor: the build's own messages (JSON syntax,
 * schema, nesting, `$ref`s), each placed at a line and column of the text so the editor can
 * underline it. The build reports the same problems as `docs.json: <path>: <rule>` lines; here
 * the file name is left out and the path is turned back into the place it names.
 */
import { BuilderError } from '../errors.ts';
import { configSchema } from './config-schema.ts';
import { errorMap, formatIssues } from './error-map.ts';
import { findJsonSyntaxError } from './json-syntax-error.ts';
import { MAX_CONFIG_DEPTH, nestingDepth } from './nesting-depth.ts';
import { CONFIG_FILE, parseConfigValue, type SiteLocation } from './parse-config.ts';
import { resolveRefs, type ReadRepoFile } from './resolve-refs.ts';

/** One problem: 1-based line and column in the text, and the build's message. */
export interface ConfigProblem { line: number; column: number; message: string }

/** Most problems returned (the build lists as many). */
const MAX_PROBLEMS = 100;

type Key = string | number;

/** Where each value of a valid JSON text starts, by path (`navbar\u0000links\u00000`). */
function valuePositions(text: string): Map<string, number> {
  const at = new Map<string, number>();
  let i = 0;
  const ws = () => { while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++; };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: Key[]): void => {
    ws();
    at.set(path.join('\0'), i);
    const c = text[i];
    if (c === '{') {
      i++; ws();
      while (text[i] !== '}' && i < text.length) {
        ws();
        const key = str();
        ws(); i++; // ':'
        value([...path, key]);
        ws();
        if (text[i] === ',') i++;
        ws();
      }
      i++;
    } else if (c === '[') {
      i++; ws();
      let n = 0;
      while (text[i] !== ']' && i < text.length) {
        value([...path, n++]);
        ws();
        if (text[i] === ',') i++;
        ws();
      }
      i++;
    } else if (c === '"') str();
    else while (i < text.length && !',]} \t\r\n'.includes(text[i]!)) i++;
  };
  value([]);
  return at;
}

/** `navbar.links[0].label` back into keys. */
function parsePath(shown: string): Key[] {
  const keys: Key[] = [];
  for (const m of shown.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) keys.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return keys;
}

function lineColumn(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** A build message line (`docs.json: a.b[0]: rule`) as a problem placed at the deepest part of its path found in the text. */
function place(text: string, positions: Map<string, number>, line: string): ConfigProblem {
  const prefix = `${CONFIG_FILE}: `;
  const body = line.startsWith(prefix) ? line.slice(prefix.length) : line;
  const sep = body.indexOf(': ');
  const keys = sep > 0 ? parsePath(body.slice(0, sep)) : [];
  for (let n = keys.length; n >= 0; n--) {
    const index = positions.get(keys.slice(0, n).join('\0'));
    if (index !== undefined) return { ...lineColumn(text, index), message: body };
  }
  return { line: 1, column: 1, message: body };
}

/**
 * Every problem the build would report for `text` as the project's `docs.json` (none: the
 * build accepts it). `read` reads the repository files a `$ref` names; without it a `$ref` is
 * reported as the build reports a missing file.
 */
export async function configProblems(text: string, location: SiteLocation, read: ReadRepoFile = async () => undefined): Promise<ConfigProblem[]> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    const at = findJsonSyntaxError(text);
    return [at ? { line: at.line, column: at.column, message: at.message } : { line: 1, column: 1, message: (cause as Error).message }];
  }
  if (nestingDepth(data) > MAX_CONFIG_DEPTH) return [{ line: 1, column: 1, message: `Unexpected nesting deeper than ${MAX_CONFIG_DEPTH} levels; expected a flatter file` }];
  const positions = valuePositions(text);
  const lines = (e: unknown): ConfigProblem[] => {
    if (!(e instanceof BuilderError) || e.kind !== 'user') throw e;
    return e.message.split('\n').filter(Boolean).slice(0, MAX_PROBLEMS).map((l) => place(text, positions, l));
  };
  let value: unknown;
  try {
    value = (await resolveRefs(data, CONFIG_FILE, read)).value;
  } catch (e) {
    return lines(e);
  }
  const result = configSchema.safeParse(value, { error: errorMap });
  if (!result.success) return formatIssues(result.error.issues, CONFIG_FILE).slice(0, MAX_PROBLEMS).map((l) => place(text, positions, l));
  try {
    parseConfigValue(value, location);
    return [];
  } catch (e) {
    return lines(e);
  }
}
