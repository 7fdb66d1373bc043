/**
 * A full garbage collection of this process, for the builder's own code at moments it chooses
 * (between a kept builder's builds, and now and then while a big build's sandboxes compile).
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
