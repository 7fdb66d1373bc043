/**
 * How many compile sandboxes a build runs at once: one per core, at most two (the build process
 * itself renders, exports and publishes beside them), and no more than the memory this process
 * may use holds. A sandbox compiling big batches peaks at about 200-300 MB (builder
 * docs/benchmarks.md, "A worker's memory"); {@link SANDBOX_MB} leaves room above that, and the
 * build process keeps {@link BUILD_PROCESS_MB} for itself. The memory is the machine's, or the
 * container's when its control group sets a smaller limit (a builder container given 1 GB gets one
 * sandbox, not two that would push it into the out-of-memory killer).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** Memory one sandbox is given room for, in MB. */
export const SANDBOX_MB = 400;
/** Memory kept for the build process beside its sandboxes, in MB. */
export const BUILD_PROCESS_MB = 600;
/** Sandboxes at most, whatever the machine. */
const MAX_SANDBOXES = 2;

/** The control group's memory limit in bytes (cgroup v2, then v1), or undefined when there is none. */
export function cgroupMemoryLimit(read: (file: string) => string = (file) => readFileSync(file, 'utf8')): number | undefined {
  for (const file of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
    let text: string;
    try {
      text = read(file).trim();
    } catch {
      continue;
    }
    const bytes = Number(text);
    // v2 writes `max` for no limit; v1 a huge number near 2^63.
    if (Number.isSafeInteger(bytes) && bytes > 0) return bytes;
    return undefined;
  }
  return undefined;
}

/** What the pool size is decided from (the machine's by default). */
export interface PoolInputs { cores: number; totalBytes: number; cgroupBytes?: number }

export function machineInputs(): PoolInputs {
  return { cores: os.availableParallelism(), totalBytes: os.totalmem(), cgroupBytes: cgroupMemoryLimit() };
}

/** The number of sandboxes for big batches: at least one. */
export function poolSize({ cores, totalBytes, cgroupBytes }: PoolInputs = machineInputs()): number {
  const memoryMb = Math.min(totalBytes, cgroupBytes ?? Number.POSITIVE_INFINITY) / 1024 / 1024;
  const byMemory = Math.floor((memoryMb - BUILD_PROCESS_MB) / SANDBOX_MB);
  return Math.max(1, Math.min(MAX_SANDBOXES, cores, byMemory));
}
