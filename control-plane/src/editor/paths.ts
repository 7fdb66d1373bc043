/**
 * The repository paths the web editor accepts, and what kind of file each is. Every path a
 * request names goes through {@link editorPath} before it reaches the database or Git: it is
 * normalised (a leading `./`, repeated and trailing `/` dropped) and refused with
 * 400 `invalid_path` when it could leave the repository, touch Git's own files, or mean two
 * different files that look the same.
 */
import { AppError } from '../errors.ts';

/** Longest accepted path, in characters (Git and every file system here take it; 4 deep folders of long names fit). */
export const MAX_PATH_LENGTH = 300;
/** Longest accepted file or folder name, in characters. */
export const MAX_SEGMENT_LENGTH = 120;

/**
 * Extensions of files the editor opens and saves as text. SVG is not among them: an SVG may
 * carry script, so SVGs arrive through `POST /assets`, which sanitises them like every upload.
 */
export const TEXT_EXTENSIONS = ['.mdx', '.md', '.json', '.yaml', '.yml', '.css', '.js', '.jsx', '.ts', '.tsx', '.txt'] as const;
/** Extensions stored as binary drafts (assets; what `POST /assets` writes). */
export const BINARY_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.webp', '.ico', '.svg', '.gif', '.avif', '.woff', '.woff2', '.pdf', '.mp4', '.webm'] as const;

/** 400 `invalid_path` naming the field in words (`Path`, `From`, `To`: the dashboard shows the message as it is). */
export const invalidPath = (field: string, rule: string) => new AppError(400, 'invalid_path', `${field}: ${rule}`);

const extensionOf = (path: string) => {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
};

/** Whether the file at `path` is edited as text. */
export function isTextPath(path: string): boolean {
  return (TEXT_EXTENSIONS as readonly string[]).includes(extensionOf(path));
}

/** Whether `path` is a page (`.mdx`, `.md`) outside `snippets/`. */
export function isPagePath(path: string): boolean {
  return /\.(mdx|md)$/i.test(path) && !isSnippetPath(path);
}

export function isSnippetPath(path: string): boolean {
  return path.startsWith('snippets/') || path.includes('/snippets/');
}

export type FileKind = 'page' | 'snippet' | 'config' | 'asset' | 'other';

/** What the file tree shows a path as. */
export function fileKind(path: string): FileKind {
  if (path === 'docs.json' || path === 'mint.json') return 'config';
  if (isSnippetPath(path)) return 'snippet';
  if (/\.(mdx|md)$/i.test(path)) return 'page';
  if (/^(public|images)\//.test(path) || (BINARY_EXTENSIONS as readonly string[]).includes(extensionOf(path))) return 'asset';
  return 'other';
}

/**
 * `raw` as a normalised repository path, or 400 `invalid_path` (message `<field>: <rule>`).
 * Refused: empty, NUL and other control characters, backslashes, absolute paths (`/a`, `C:`),
 * `.` and `..` segments, any `.git` segment, names over {@link MAX_SEGMENT_LENGTH} or paths over
 * {@link MAX_PATH_LENGTH} characters, and text not in Unicode NFC (a decomposed `é` would be a
 * second file that looks like the first). With `file: 'text'` the extension must be one of
 * {@link TEXT_EXTENSIONS}; `file: 'any'` accepts any file name; `folder` accepts a folder or file.
 */
export function editorPath(field: string, raw: string, expect: 'text' | 'any' | 'folder' = 'text'): string {
  if (raw.includes('\0')) throw invalidPath(field, 'Unexpected NUL character; expected a path inside the repository');
  // eslint-disable-next-line no-control-regex
  if (/[\u0001-\u001f\u007f-\u009f]/.test(raw)) throw invalidPath(field, 'Unexpected control character; expected printable characters');
  if (raw.includes('\\')) throw invalidPath(field, 'Unexpected backslash; expected "/" between folders');
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) throw invalidPath(field, 'Unexpected absolute path; expected a path relative to the repository root, such as guides/install.mdx');
  if (raw.normalize('NFC') !== raw) throw invalidPath(field, 'Unexpected decomposed Unicode; expected NFC (composed) characters');
  if (raw.length > MAX_PATH_LENGTH) throw invalidPath(field, `Unexpected length ${raw.length}; expected at most ${MAX_PATH_LENGTH} characters`);
  const segments = raw.replace(/^(\.\/)+/, '').split('/').filter((s) => s !== '');
  if (segments.length === 0) throw invalidPath(field, 'Unexpected empty path; expected a path such as guides/install.mdx');
  for (const s of segments) {
    if (s === '..' || s === '.') throw invalidPath(field, `Unexpected "${s}" segment; expected a path inside the repository`);
    if (s.toLowerCase() === '.git') throw invalidPath(field, 'Unexpected ".git" segment; Git\'s own files cannot be edited');
    if (s.length > MAX_SEGMENT_LENGTH) throw invalidPath(field, `Unexpected name of ${s.length} characters; expected at most ${MAX_SEGMENT_LENGTH}`);
    if (s !== s.trim()) throw invalidPath(field, `Unexpected space at the start or end of "${s}"; expected names without surrounding spaces`);
  }
  const path = segments.join('/');
  if (expect === 'text' && !isTextPath(path)) {
    throw invalidPath(field, `Unexpected file type "${extensionOf(path) || 'none'}"; expected one of ${TEXT_EXTENSIONS.join(' ')} (images and other files go through assets)`);
  }
  return path;
}

/** `path` moved from folder or file `from` to `to` (`from` itself, or a path inside it), else undefined. */
export function movedPath(path: string, from: string, to: string): string | undefined {
  if (path === from) return to;
  if (path.startsWith(`${from}/`)) return `${to}${path.slice(from.length)}`;
  return undefined;
}
