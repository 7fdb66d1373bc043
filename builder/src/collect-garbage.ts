/**
 * A full garbage collection of this process, for the builder's own code at moments it chooses
 * (between a kept builder's builds, and every so many pages while a big build compiles, renders
 * shells and makes exports: uploading its objects over HTTP, a worker's build process otherwise
 * let ~500 MB of garbage pile up at 10,000 pages).
 *
 * The collector is reached the way `--expose-gc` would give it, for this module only: the flag
 * is turned off again at once. Only the platform's code runs in a build process (pages run in
 * sandboxes), so nothing else could call it anyway.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let collect: (() => void) | undefined;

export function collectGarbage(): void {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
    v8.setFlagsFromString('--no-expose-gc');
  }
  collect();
}

/** A counter of pages done that calls {@link collectGarbage} once every `every` pages. */
export function collectEvery(every: number): (pages: number) => void {
  let since = 0;
  return (pages) => {
    since += pages;
    if (since < every) return;
    since = 0;
    collectGarbage();
  };
}
