/**
 * Moved pages keep their links: when a sync renames a page (see `git/detect-renames.ts`), its old
 * URL redirects to the new one (308) in `_redirects.json`, after the explicit `redirects` of
 * docs.json. The moves are builder state (`_folio/cache/moves.json.gz`), carried from sync to
 * sync: a page moved again redirects every older URL straight to its latest one.
 *
 * A move is dropped when a page is published at its old URL again (the new page wins), when an
 * explicit redirect has the same source (the author's redirect wins), or when the page it
 * points to is gone.
 */
import { decodeJson, encodeJson, GZIP_JSON } from '../cache/gzip-json.ts';
import { STATE_PREFIX } from '../state/manifest.ts';
import type { ObjectStore } from '../store/object-store.ts';

/** Key of the moves in the site's store (builder state, never served). */
export const MOVES_KEY = `${STATE_PREFIX}moves.json.gz`;

/** Old URL path → the URL path of the page now. */
export type Moves = Record<string, string>;

interface MovesFile { version: 1; moves: Moves }

/** The moves of the last publish (empty when none or unreadable). */
export async function readMoves(store: ObjectStore): Promise<Moves> {
  const file = await decodeJson<MovesFile>(await store.get(MOVES_KEY));
  return file?.version === 1 && file.moves && typeof file.moves === 'object' ? file.moves : {};
}

/** Writes the moves when they differ from `previous`. */
export async function writeMoves(store: ObjectStore, moves: Moves, previous: Moves): Promise<void> {
  if (JSON.stringify(moves) === JSON.stringify(previous)) return;
  await store.put(MOVES_KEY, await encodeJson({ version: 1, moves } satisfies MovesFile), { contentType: GZIP_JSON, cacheControl: 'no-store' });
}

/**
 * The moves after this sync: the previous ones, re-pointed through this sync's renames, plus
 * the renames themselves, minus those a live page or an explicit redirect overrides, or whose
 * page is gone. Sorted by old path, so unchanged moves keep their bytes.
 */
export function nextMoves(previous: Moves, renamed: ReadonlyArray<{ from: string; to: string }>, live: ReadonlySet<string>, explicitSources: ReadonlySet<string>): Moves {
  const moves: Moves = { ...previous };
  for (const { from, to } of renamed) {
    for (const [source, destination] of Object.entries(moves)) if (destination === from) moves[source] = to;
    moves[from] = to;
  }
  return Object.fromEntries(Object.entries(moves)
    .filter(([source, destination]) => source !== destination && !live.has(source) && !explicitSources.has(source) && live.has(destination))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
