/**
 * A linear-time `EditMap.consume` for micromark, the Markdown tokenizer under MDX.
 *
 * micromark applies batched edits to its list of events with `EditMap.consume`, which copies
 * every event before the first edit out of the list and pushes them back one by one. The
 * document tokenizer consumes an edit map at each "lazy" line (a line that ends a list or quote
 * without a blank line continuing it, as `</Update>` after a bulleted list does), with the edits
 * at the end of the events: each such line costs the whole document's events so far, so pages
 * with many of them parse in quadratic time. A 160 KB changelog of 400 `<Update>` blocks holding
 * lists spends about half its parse in that copy.
 *
 * The version here leaves the events before the first edit where they are and rebuilds only the
 * rest. The resulting list is the same, element for element (test/compile/micromark-edit-map),
 * so pages parse to the same tree. It replaces the method on micromark's class, which every
 * tokenizer of the process shares: installed once by {@link installLinearEditMap}.
 */
import { EditMap } from 'micromark-util-edit-map';
import type { Event } from 'micromark-util-types';

/** An edit as micromark keeps it: at index, remove count, events to insert. */
type Change = [number, number, Event[]];

/** The fields of micromark's `EditMap` that `consume` reads and resets. */
interface EditMapState {
  map: Change[];
  index?: Map<number, Change>;
}

/** micromark's own `consume`, kept for comparison in tests. */
export const originalConsume: (this: EditMap, events: Event[]) => undefined = EditMap.prototype.consume;

/**
 * Applies the recorded edits to `events` in place, exactly as micromark's `consume` does: edits
 * sorted by index; each one removes its count of events and inserts its own; an edit whose index
 * falls inside an earlier one's removed range inserts at the end of that range.
 */
export function linearConsume(this: EditMap, events: Event[]): undefined {
  const state = this as unknown as EditMapState;
  state.map.sort((a, b) => a[0] - b[0]);
  if (state.map.length === 0) return undefined;
  const start = state.map[0][0];
  const end = events.length;
  const tail = events.slice(start);
  events.length = start;
  let cursor = start;
  for (const [at, remove, add] of state.map) {
    for (let i = cursor; i < at; i++) events.push(tail[i - start]);
    for (const event of add) events.push(event);
    cursor = at + remove;
  }
  for (let i = cursor; i < end; i++) events.push(tail[i - start]);
  state.map.length = 0;
  state.index?.clear();
  return undefined;
}

let installed = false;

/** Makes micromark's edit maps consume in linear time, for every parser of this process (idempotent). */
export function installLinearEditMap(): void {
  if (installed) return;
  installed = true;
  EditMap.prototype.consume = linearConsume;
}
