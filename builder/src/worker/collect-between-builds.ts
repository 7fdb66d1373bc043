/**
 * A full garbage collection for a long-lived build process, run between builds rather than
 * during them. A kept builder's heap holds its site's state (remembered maps, page memory,
 * summaries: 300-500 MB at 10,000 pages), and a major collection that lands in an edit's build
 * added 50-150 ms to it; collected while the process waits for its next job, the next build
 * starts with its garbage gone and its heap's limit set from what it keeps.
 */
import { collectGarbage } from '../collect-garbage.ts';

export function collectBetweenBuilds(): void {
  collectGarbage();
}
