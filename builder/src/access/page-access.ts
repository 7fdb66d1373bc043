/**
 * A page's access keys read from its source before it is compiled: the build decides which
 * audiences a page belongs to (access/audiences.ts) before any output is made, so a gated page
 * never reaches an output of readers who may not see it. Only the frontmatter block is parsed,
 * and only when its text names one of the keys.
 */
import { parse, YAMLParseError } from 'yaml';
import { userError } from '../errors.ts';
import { checkAccessKeys, type AccessKeys } from './access-keys.ts';

const FRONTMATTER = /^(?:\uFEFF)?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const NAMES_A_KEY = /^(?:groups|public)[ \t]*:/m;

/**
 * The access keys of the page `file` with source `text`.
 *
 * @throws BuilderError `invalid_frontmatter` (user) naming the file and line, for a key of the
 *   wrong type, an empty or too long group list, or `public: true` with `groups`.
 */
export function readPageAccess(text: string, file: string): AccessKeys {
  const match = FRONTMATTER.exec(text);
  if (!match || !NAMES_A_KEY.test(match[1])) return {};
  let data: unknown;
  try {
    data = parse(match[1], { prettyErrors: false });
  } catch (err) {
    if (err instanceof YAMLParseError) return {}; // the compile step reports the YAML itself, positioned
    throw err;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return {};
  const checked = checkAccessKeys(data as Record<string, unknown>);
  if ('problem' in checked) {
    const key = checked.problem.includes('`groups`') ? 'groups' : 'public';
    const line = match[1].split(/\r?\n/).findIndex((l) => l.startsWith(`${key}`)) + 2;
    throw userError('invalid_frontmatter', `${checked.problem.replace('Unexpected `', 'Unexpected frontmatter `')}`, { file, line: line > 1 ? line : 2, column: 1 });
  }
  return checked.keys;
}
