/**
 * Branch names the editor publishes to or merges from: what `git check-ref-format --branch`
 * accepts, checked here without a process, and kept to names a preview host label can be made
 * of (sites/preview-label.ts shortens and hashes them).
 */
import { AppError } from '../../errors.ts';

const MAX_LENGTH = 100;

/** `raw` as a branch name, or 400 `invalid_request` naming `field` and the rule. */
export function checkBranchName(field: string, raw: string): string {
  const bad = (rule: string) => new AppError(400, 'invalid_request', `${field}: ${rule}`);
  const name = raw.trim();
  if (!name) throw bad('Required: a branch name such as docs/new-guide');
  if (name.length > MAX_LENGTH) throw bad(`Unexpected length ${name.length}; expected at most ${MAX_LENGTH} characters`);
  if (!/^[A-Za-z0-9._/-]+$/.test(name)) throw bad('Unexpected character; expected letters, digits, ".", "_", "-" and "/"');
  if (name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock')
    || name.includes('..') || name.includes('//') || name.split('/').some((part) => part.startsWith('.')) || name === 'HEAD') {
    throw bad('Unexpected branch name; Git does not accept it (no leading "-", "/" or ".", no "..", "//", trailing "/", "." or ".lock")');
  }
  return name;
}
