/**
 * CPU time and resident memory of a process, read from Linux's `/proc/<pid>/stat`. CPU time, not
 * wall time, is what page limits are counted in: it does not stretch on a loaded machine.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of `/proc/<pid>/stat` times (USER_HZ, 100 on every Linux build we run on). */
const TICKS_PER_SECOND = 100;
const PAGE_BYTES = 4096;

export interface ProcStats {
  /** User plus system CPU time, in milliseconds. */
  cpuMs: number;
  /** Resident set size, in bytes. */
  rssBytes: number;
}

/** The process's stats, or undefined when it has ended or the system has no `/proc`. */
export async function readProcStats(pid: number): Promise<ProcStats | undefined> {
  let text: string;
  try {
    // Synchronous: /proc answers from memory, and the async read's four thread-pool hops
    // (open, stat, read, close), five times a second per sandbox, were ~1 s of a 1,000-page
    // build's main-thread CPU.
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const rssPages = Number(fields[21]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
  return { cpuMs: ((utime + stime) * 1000) / TICKS_PER_SECOND, rssBytes: rssPages * PAGE_BYTES };
}
