import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** Full collections this process was asked for (not the ones V8 chose) while `run` ran. */
export async function forcedCollections(run: () => unknown): Promise<number> {
  const seen: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => seen.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  await run();
  await new Promise((resolve) => setTimeout(resolve, 50));
  seen.push(...observer.takeRecords());
  observer.disconnect();
  return seen.filter((e) => {
    const detail = (e as PerformanceEntry & { detail?: { kind: number; flags: number } }).detail;
    return detail && detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR && (detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0;
  }).length;
}
