/**
 * Turns whatever a page's compile threw into a `PageFailure`. Customer mistakes keep their
 * position: our own user errors carry it, MDX syntax errors arrive as vfile messages with
 * `line`/`column`. Anything else while running or rendering the page is reported as the page's
 * runtime error (its message, and the place of the expression that threw when one did; stacks
 * would point into the builder).
 */
import type { PageFailure } from '../types.ts';
import { BuilderError, userError } from '../errors.ts';
import { BatchIds } from './page-plugin.ts';

interface VFileMessageLike { reason: string; line?: number | null; column?: number | null; file?: string | null }
interface BuilderErrorLike { message: string; kind: 'user' | 'app'; code: string; file?: string; line?: number; column?: number }

// Errors from Vite's module runner arrive as copies of their own properties, not instances.
function isVFileMessage(err: unknown): err is VFileMessageLike {
  return typeof err === 'object' && err !== null && typeof (err as VFileMessageLike).reason === 'string' && 'place' in err;
}

function isBuilderErrorLike(err: unknown): err is BuilderErrorLike {
  const e = err as BuilderErrorLike;
  return typeof err === 'object' && err !== null && (e.kind === 'user' || e.kind === 'app') && typeof e.code === 'string' && typeof e.message === 'string';
}

// Some MDX messages only name their place in the text, e.g. "… for `<Note>` (3:1-3:7)".
const PLACE_IN_REASON = /\((\d+):(\d+)(?:-\d+:\d+)?\)$/;

/** The positioned user error for anything a page's compile or render threw. */
export function toBuilderError(err: unknown, sourcePath: string): BuilderError {
  if (err instanceof BuilderError && err.file !== undefined) return err;
  if (isBuilderErrorLike(err)) {
    return new BuilderError(err.message, { kind: err.kind, code: err.code, file: err.file ?? sourcePath, line: err.line ?? undefined, column: err.column ?? undefined, cause: err });
  }
  if (isVFileMessage(err)) {
    const file = err.file ? BatchIds.repoPath(err.file) : sourcePath;
    const place = PLACE_IN_REASON.exec(err.reason);
    const line = err.line ?? (place ? Number(place[1]) : undefined);
    const column = err.column ?? (place ? Number(place[2]) : undefined);
    return userError('mdx_syntax', err.reason, { file, line, column });
  }
  const message = err instanceof Error ? err.message : String(err);
  // Set by the expression that threw (expression-positions.ts).
  // Set by the expression that threw (expression-positions.ts), or by the code of a component
  // that threw while rendering (render-positions.ts), with the file when it is a snippet.
  const at = (err as { folioAt?: unknown } | null)?.folioAt;
  const tagged = Array.isArray(at) && (at.length === 2 || at.length === 3) && Number.isInteger(at[0]) && Number.isInteger(at[1]);
  const place = tagged ? { line: at[0] as number, column: at[1] as number } : {};
  const file = tagged && typeof at[2] === 'string' && at[2] !== '' ? at[2] : sourcePath;
  return userError('mdx_runtime', `Unexpected error while running the page: ${message}`, { file, ...place, cause: err });
}

/**
 * The `PageFailure` of a page whose compile threw `err`. When the error is in another file (a
 * snippet), the message starts with that file's `path:line:column` and the failure carries no
 * position, since `line`/`column` always refer to the page itself.
 */
export function toPageFailure(err: unknown, sourcePath: string): PageFailure {
  const e = toBuilderError(err, sourcePath);
  if (e.file !== undefined && e.file !== sourcePath) return { sourcePath, message: e.toString() };
  return { sourcePath, message: e.message, ...(e.line !== undefined ? { line: e.line } : {}), ...(e.column !== undefined ? { column: e.column } : {}) };
}
