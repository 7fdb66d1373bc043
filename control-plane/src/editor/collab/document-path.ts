/**
 * Which Hocuspocus document names the collaboration socket accepts: a text file's repository
 * path exactly as drafts store it (the editor's path rules, editor/paths.ts, already
 * normalised), or {@link PRESENCE_DOCUMENT}, the project's presence channel (awareness only,
 * never written).
 */
import { AppError } from '../../errors.ts';
import { editorPath } from '../paths.ts';

/** The document every editor of a project joins to say which files it has open. */
export const PRESENCE_DOCUMENT = ':presence';

/** Why `name` is not a document of the socket (the `invalid_path` message), or undefined when it is a valid draft path. */
export function documentPathProblem(name: string): string | undefined {
  try {
    const normalised = editorPath('document', name, 'text');
    if (normalised !== name) return `document: Unexpected ${JSON.stringify(name.slice(0, 100))}; expected the normalised path ${JSON.stringify(normalised)}`;
    return undefined;
  } catch (err) {
    if (err instanceof AppError) return err.message;
    throw err;
  }
}
