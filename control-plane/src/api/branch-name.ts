/**
 * The rules a project's `github_branch` must follow: Git's own for branch names
 * (`git check-ref-format --branch`, which also refuses `HEAD` and a leading `-`), plus Folio's.
 * The name travels to `git` commands, webhook matching (`refs/heads/<branch>`) and builders'
 * fetches, so what Git would refuse, or read as an option or another ref, is refused when it is set.
 *
 * Folio's additions: not `@` alone (Git's ref rules refuse it; `--branch` reads it as HEAD); not
 * starting with `refs/` (the short name is expected: `refs/heads/main` would sync a branch named
 * `refs/heads/main`); no shell metacharacters `$ \` ' " ; & | < > ( )` (legal in Git, but a
 * hazard in every script and log line the name reaches, and no real branch needs them); at most
 * 255 characters.
 */
import { z } from 'zod';

/** Longest branch name accepted (Git sets none; 255 keeps names sane in logs, URLs and file systems). */
export const MAX_BRANCH_LENGTH = 255;

const EXPECTED = 'expected a Git branch name';

/**
 * The same rules as one ECMAScript regular expression, published as the OpenAPI `pattern`, so
 * clients can check names before sending them (a test keeps it in step with {@link branchProblem}).
 */
export const BRANCH_PATTERN = String.raw`^(?!-)(?!HEAD$)(?!@$)(?!refs/)(?![./])(?!.*(?:\.\.|//|@\{|/\.|\.lock/|\.lock$|/$|\.$))[^\x00-\x20\x7f~^:?*[\\$${'`'}'";&|<>()]{1,${MAX_BRANCH_LENGTH}}$`;

/** Characters refused anywhere, with the words the message uses for them. */
// eslint-disable-next-line no-control-regex -- Git refuses control characters in ref names.
const BAD_CHARACTER = /[\x00-\x20\x7f~^:?*[\\$`'";&|<>()]/;

function describeChar(c: string): string {
  if (c === ' ') return 'space';
  const code = c.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `"${c}"`;
}

/**
 * The first rule `name` breaks, as "Unexpected X; expected Y", or undefined for a valid branch
 * name. The order is fixed, so a name breaking several rules always gets the same message.
 */
export function branchProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > MAX_BRANCH_LENGTH) return `Unexpected length ${name.length}; ${EXPECTED} of 1-${MAX_BRANCH_LENGTH} characters`;
  if (name.startsWith('-')) return `Unexpected leading "-"; ${EXPECTED} (a leading "-" reads as a command-line option)`;
  if (name === 'HEAD') return `Unexpected "HEAD"; ${EXPECTED} (HEAD names the current commit)`;
  if (name === '@') return `Unexpected "@"; ${EXPECTED} ("@" alone means HEAD)`;
  if (name.startsWith('refs/')) return `Unexpected "refs/" prefix; ${EXPECTED} without it, e.g. main`;
  const bad = BAD_CHARACTER.exec(name);
  if (bad) return `Unexpected ${describeChar(bad[0])}; ${EXPECTED} without spaces, control characters or ~ ^ : ? * [ \\ $ \` ' " ; & | < > ( )`;
  if (name.includes('..')) return `Unexpected ".."; ${EXPECTED}`;
  if (name.includes('@{')) return `Unexpected "@{"; ${EXPECTED}`;
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return `Unexpected empty path component ("/" at either end, or "//"); ${EXPECTED}`;
  if (name.endsWith('.')) return `Unexpected trailing "."; ${EXPECTED}`;
  for (const component of name.split('/')) {
    if (component.startsWith('.')) return `Unexpected component starting with "."; ${EXPECTED}`;
    if (component.endsWith('.lock')) return `Unexpected component ending with ".lock"; ${EXPECTED}`;
  }
  return undefined;
}

/** The request schema of `github_branch`: the checks above, and the pattern in the OpenAPI document. */
export const branchSchema = z.string()
  .superRefine((name, ctx) => {
    const problem = branchProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: name });
  })
  .meta({
    pattern: BRANCH_PATTERN,
    minLength: 1,
    maxLength: MAX_BRANCH_LENGTH,
    description: 'Branch synced for deployments (default main): a Git branch name (git check-ref-format --branch), '
      + `1-${MAX_BRANCH_LENGTH} characters, not HEAD, not starting with refs/, without shell metacharacters $ \` ' " ; & | < > ( )`,
  });
