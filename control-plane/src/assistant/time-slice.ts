/**
 * Long CPU work on the control plane's event loop (building a site's assistant index) gives the
 * loop back by time rather than by count: every page served, Git request and claim waits behind
 * at most one slice. Counted batches (64 pages, 256 passages) held it for tens of milliseconds
 * each on a busy machine, and a deployment's index is built right when the next push of the site
 * is likely to arrive.
 */

/** Work between two yields to the event loop, at most (a unit of work started before it ends is finished first). */
export const SLICE_MS = 4;

/**
 * A check to await between units of work: undefined while the current slice lasts, else a
 * promise that resolves once the event loop has run what waited (`setImmediate`).
 */
export function timeSlicer(sliceMs = SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < sliceMs) return undefined;
    return new Promise((resolve) => setImmediate(() => { since = performance.now(); resolve(); }));
  };
}
