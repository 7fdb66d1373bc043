/**
 * Text not yet confirmed by the server, kept in the browser's localStorage per project and file
 * until a save answers: a closed tab, a dropped network or a restarted platform loses nothing.
 * `revision` is the draft revision the text was typed on (undefined: the file had no draft yet).
 */

export interface LocalCopy { content: string; revision?: number; at: number }

const key = (projectId: string, path: string) => `folio-editor:${projectId}:${path}`;

export function readLocal(projectId: string, path: string): LocalCopy | undefined {
  try {
    const raw = localStorage.getItem(key(projectId, path));
    const v = raw ? (JSON.parse(raw) as LocalCopy) : undefined;
    return v && typeof v.content === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

export function writeLocal(projectId: string, path: string, copy: LocalCopy): void {
  try {
    localStorage.setItem(key(projectId, path), JSON.stringify(copy));
  } catch {
    // A full or disabled storage: the server save still runs.
  }
}

export function clearLocal(projectId: string, path: string): void {
  try {
    localStorage.removeItem(key(projectId, path));
  } catch {
    // Nothing to clear.
  }
}

/** Paths of a project with text kept in this browser. */
export function localPaths(projectId: string): string[] {
  const prefix = key(projectId, '');
  const out: string[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k?.startsWith(prefix)) out.push(k.slice(prefix.length));
    }
  } catch {
    // No storage.
  }
  return out;
}
