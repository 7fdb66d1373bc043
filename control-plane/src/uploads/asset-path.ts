/**
 * Confines an uploaded asset's `dir` and `name` to the repository's `public/` folder. The
 * values are decoded until stable (so `%252e%252e` is caught as `..`), folded with Unicode
 * NFKC (so fullwidth `．．／` is caught as `../`), then checked segment by segment against a
 * small allow-list of characters that are safe in a Git path, an object key and a URL alike.
 */
import { invalid } from '../errors.ts';

/** Longest accepted `dir` and `name`, in characters after decoding. */
export const MAX_DIR_LENGTH = 200;
export const MAX_NAME_LENGTH = 100;

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const INSIDE = 'expected a folder inside public/';

/** Percent-decodes until the value stops changing (bounded, so a deep nesting cannot spin). */
function decodeFully(field: string, value: string): string {
  let current = value;
  for (let i = 0; i < 8; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      throw invalid(field, 'Malformed percent-encoding; expected plain characters');
    }
    if (next === current) return current.normalize('NFKC');
    current = next;
  }
  throw invalid(field, 'Unexpected nested percent-encoding; expected plain characters');
}

function checkCommon(field: string, raw: string, decoded: string): void {
  if (raw.includes('\0') || decoded.includes('\0')) throw invalid(field, `Unexpected NUL character; ${INSIDE}`);
  if (decoded.includes('\\')) throw invalid(field, 'Unexpected backslash; expected "/" between folders');
}

/**
 * `dir` as a normalised relative folder (`'images/brand'`), or `''` when empty or omitted.
 * Refuses `..` and `.` segments, absolute paths, backslashes, NUL, and any character outside
 * `A-Z a-z 0-9 . _ -` within a segment, in plain or encoded form.
 */
export function confineDir(raw: string | undefined): string {
  const field = 'dir';
  if (raw === undefined || raw === '') return '';
  const decoded = decodeFully(field, raw);
  checkCommon(field, raw, decoded);
  if (decoded.startsWith('/') || /^[A-Za-z]:/.test(decoded)) throw invalid(field, `Unexpected absolute path; ${INSIDE}`);
  const segments = decoded.split('/').filter((s, i, all) => !(s === '' && i === all.length - 1));
  if (segments.some((s) => s === '..')) throw invalid(field, `Unexpected ".." segment; ${INSIDE}`);
  if (decoded.length > MAX_DIR_LENGTH) throw invalid(field, `Unexpected length ${decoded.length}; expected at most ${MAX_DIR_LENGTH} characters`);
  for (const s of segments) {
    if (!SEGMENT.test(s)) {
      throw invalid(field, `Unexpected folder name "${s}"; expected letters, digits, ".", "_" or "-", not starting with "." or "-"`);
    }
  }
  return segments.join('/');
}

/**
 * `name` checked as one file name without extension: letters, digits, `.`, `_`, `-`, not
 * starting with `.` or `-`, at most `MAX_NAME_LENGTH` characters; the same decoding as `dir`.
 */
export function confineName(raw: string): string {
  const field = 'name';
  const decoded = decodeFully(field, raw);
  checkCommon(field, raw, decoded);
  if (decoded.includes('/')) throw invalid(field, 'Unexpected "/"; expected a file name without folders (use dir)');
  if (decoded === '..' || decoded === '.') throw invalid(field, `Unexpected "${decoded}"; expected a file name`);
  if (decoded.length > MAX_NAME_LENGTH) throw invalid(field, `Unexpected length ${decoded.length}; expected at most ${MAX_NAME_LENGTH} characters`);
  if (!SEGMENT.test(decoded)) {
    throw invalid(field, `Unexpected file name "${decoded}"; expected letters, digits, ".", "_" or "-", not starting with "." or "-"`);
  }
  return decoded;
}
