/**
 * Three-way merge of one text file, line by line (node-diff3): `base` is the file as the draft
 * started from it, `ours` the draft, `theirs` the branch as it is now. Changes to different lines
 * combine; the same change made on both sides is taken once; different changes to the same lines
 * are a conflict, answered with a version carrying Git's conflict markers so that neither side's
 * text is ever dropped.
 */
import { diff3Merge } from 'node-diff3';

export type TextMerge =
  | { clean: true; text: string }
  | { clean: false; conflicts: number; withMarkers: string };

/** Labels of the two sides in conflict markers. */
export interface MergeLabels { ours: string; theirs: string }

const DEFAULT_LABELS: MergeLabels = { ours: 'draft', theirs: 'published' };

/** Lines with their line ends kept, so a file's own line ends (`\n`, `\r\n`) and its last line survive. */
function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** A marker line; the side before it gets a line end when its last line had none. */
const withEnd = (chunk: string[]) => {
  if (chunk.length === 0) return chunk;
  const last = chunk[chunk.length - 1];
  return last.endsWith('\n') ? chunk : [...chunk.slice(0, -1), `${last}\n`];
};

export function mergeText(base: string, ours: string, theirs: string, labels: MergeLabels = DEFAULT_LABELS): TextMerge {
  if (ours === theirs || theirs === base) return { clean: true, text: ours };
  if (ours === base) return { clean: true, text: theirs };
  const regions = diff3Merge(lines(ours), lines(base), lines(theirs), { excludeFalseConflicts: true });
  const out: string[] = [];
  let conflicts = 0;
  for (const region of regions) {
    if (region.ok) { out.push(...region.ok); continue; }
    if (!region.conflict) continue;
    conflicts++;
    out.push(`<<<<<<< ${labels.ours}\n`, ...withEnd(region.conflict.a), '=======\n', ...withEnd(region.conflict.b), `>>>>>>> ${labels.theirs}\n`);
  }
  const text = out.join('');
  return conflicts === 0 ? { clean: true, text } : { clean: false, conflicts, withMarkers: text };
}
