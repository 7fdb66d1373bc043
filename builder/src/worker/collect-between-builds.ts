/**
 * A full garbage collection for a long-lived build process, run between builds rather than
 * during them. A kept builder's heap holds its site's state (remembered maps, page memory,
 * summaries: 300-500 MB at 10,000 pages), and a major collection that lands in an edit's build
 * added 50-150 ms to it; collected while the process waits for its next job, the next build
 * starts with its garbage gone and its heap's limit set from what it keeps.
 *
 * The collector is reached the way `--expose-gc` would give it, for this module only: the flag
 * is turned off again at once. Only the platform's code runs in a build process (pages run in
 * sandboxes), so nothing else could call it anyway.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let collect: (() => void) | undefined;

export function collectBetweenBuilds(): void {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
    v8.setFlagsFromString('--no-expose-gc');
  }
  collect();
}
