/**
 * `$ref` in `docs.json`: `{ "$ref": "./navigation.json" }` stands for the JSON of that file, the
 * way Mintlify repositories split a large configuration (`"redirects": { "$ref": "./redirects.json" }`).
 *
 * Rules (documented in builder/README.md, "Configuration"):
 * - the target is a path relative to the file holding the `$ref` (absolute paths, URLs, `#`
 *   fragments and paths climbing above the repository root are refused); it is read from the
 *   repository snapshot, whose symbolic links leaving the repository are already dropped, so a
 *   link cannot lead outside either;
 * - keys beside `$ref` are laid over the referenced object (they win), so a shared file can be
 *   specialised; beside a non-object target they are an error;
 * - a file that includes itself, directly or through others, is refused (a cycle), and so are
 *   more than {@link MAX_REF_FILES} inclusions, a chain deeper than {@link MAX_REF_CHAIN}, or a
 *   file larger than {@link MAX_REF_FILE_BYTES}.
 *
 * Every error is one line `<file>: <path>.$ref: Unexpected …; expected …` naming the file and key
 * holding the `$ref`.
 */
import path from 'node:path';
import { userError } from '../errors.ts';
import { describeValue, formatPath } from './error-map.ts';
import { findJsonSyntaxError } from './json-syntax-error.ts';
import { MAX_CONFIG_DEPTH, nestingDepth } from './nesting-depth.ts';

/** Most `$ref` inclusions one configuration may make (the same file included twice counts twice). */
export const MAX_REF_FILES = 64;
/** Longest chain of files including one another. */
export const MAX_REF_CHAIN = 8;
/** Largest file a `$ref` may include, in bytes of UTF-8. */
export const MAX_REF_FILE_BYTES = 1024 * 1024;

/** Reads a repository file as text; `undefined` when there is no such file. */
export type ReadRepoFile = (repoPath: string) => Promise<string | undefined>;

/** The configuration with every `$ref` replaced, and the files it took. */
export interface ResolvedRefs {
  value: unknown;
  /** Repository path → text of every file included, in inclusion order. */
  files: Map<string, string>;
}

type Key = string | number;

const fail = (file: string, at: Key[], message: string) => userError('invalid_config', `${file}: ${formatPath([...at, '$ref'])}: ${message}`);

/** The repository path a `$ref` names, or an error message. */
function targetOf(ref: unknown, fromFile: string): { path: string } | { error: string } {
  const shown = describeValue(ref);
  if (typeof ref !== 'string' || ref === '') return { error: `Unexpected ${shown}; expected the relative path of a JSON file in the repository` };
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith('#') || ref.includes('#')) {
    return { error: `Unexpected ${shown}; expected the relative path of a JSON file in the repository (URLs and # fragments are not read)` };
  }
  if (/^[/\\]/.test(ref) || ref.includes('\\') || ref.includes('\0')) return { error: `Unexpected ${shown}; expected a relative path such as ./navigation.json` };
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), ref));
  if (joined === '..' || joined.startsWith('../') || joined === '.' || joined.endsWith('/')) {
    return { error: `Unexpected ${shown}; expected a file inside the repository` };
  }
  return { path: joined };
}

/**
 * Replaces every `{ "$ref": … }` object in `value` (the parsed text of `file`) by the JSON of the
 * file it names, recursively.
 *
 * @throws BuilderError `invalid_config` (kind `user`) with a one-line message.
 */
export async function resolveRefs(value: unknown, file: string, read: ReadRepoFile): Promise<ResolvedRefs> {
  const files = new Map<string, string>();
  let inclusions = 0;

  const include = async (ref: unknown, at: Key[], chain: string[]): Promise<unknown> => {
    const from = chain[chain.length - 1];
    const target = targetOf(ref, from);
    if ('error' in target) throw fail(from, at, target.error);
    const shown = describeValue(ref);
    if (chain.includes(target.path)) {
      throw fail(from, at, `Unexpected ${shown}, which includes itself (${[...chain.slice(chain.indexOf(target.path)), target.path].join(' → ')}); expected a file that does not include itself`);
    }
    if (chain.length > MAX_REF_CHAIN) throw fail(from, at, `Unexpected ${shown} at include depth ${chain.length}; expected at most ${MAX_REF_CHAIN} files including one another`);
    if (++inclusions > MAX_REF_FILES) throw fail(from, at, `Unexpected ${shown}, include number ${inclusions}; expected at most ${MAX_REF_FILES} $ref includes`);
    const text = files.get(target.path) ?? (await read(target.path));
    if (text === undefined) throw fail(from, at, `Unexpected ${shown}; expected an existing file (${describeValue(target.path).slice(1, -1)} is not in the repository)`);
    const bytes = Buffer.byteLength(text);
    if (bytes > MAX_REF_FILE_BYTES) throw fail(from, at, `Unexpected ${shown} of ${bytes} bytes; expected at most ${MAX_REF_FILE_BYTES} bytes`);
    files.set(target.path, text);
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (cause) {
      const where = findJsonSyntaxError(text);
      throw userError('invalid_config', where ? `${target.path}:${where.line}:${where.column}: ${where.message}` : `${target.path}: ${(cause as Error).message}`);
    }
    if (nestingDepth(data) > MAX_CONFIG_DEPTH) {
      throw userError('invalid_config', `${target.path}: Unexpected nesting deeper than ${MAX_CONFIG_DEPTH} levels; expected a flatter file`);
    }
    return walk(data, [], [...chain, target.path]);
  };

  // Depth is bounded: each file is at most MAX_CONFIG_DEPTH deep and chains at most MAX_REF_CHAIN long.
  const walk = async (node: unknown, at: Key[], chain: string[]): Promise<unknown> => {
    if (Array.isArray(node)) {
      const out: unknown[] = [];
      for (let i = 0; i < node.length; i++) out.push(await walk(node[i], [...at, i], chain));
      return out;
    }
    if (node === null || typeof node !== 'object') return node;
    const record = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(record)) {
      // defineProperty: a "__proto__" key stays a plain key instead of replacing the prototype.
      if (key !== '$ref') Object.defineProperty(out, key, { value: await walk(child, [...at, key], chain), enumerable: true, writable: true, configurable: true });
    }
    if (!Object.hasOwn(record, '$ref')) return out;
    const included = await include(record.$ref, at, chain);
    const siblings = Object.keys(out);
    if (siblings.length === 0) return included;
    if (included === null || typeof included !== 'object' || Array.isArray(included)) {
      throw fail(chain[chain.length - 1], at, `Unexpected ${siblings.map((k) => JSON.stringify(k)).join(', ')} beside a $ref to ${describeValue(included) === 'array' ? 'an array' : 'a ' + typeof included}; expected keys beside $ref only when it names an object`);
    }
    return { ...(included as Record<string, unknown>), ...out };
  };

  return { value: await walk(value, [], [file]), files };
}
