/**
 * Where a sandbox's start goes: marks of wall time since its process started and of the CPU
 * time it has used (every thread), taken inside the sandbox. Platform figures only: nothing of a
 * page is in them, and they are sent before (`ready`) or with (first `done`) the first answer.
 */

/** One mark: the phase that ended, and the process's wall and CPU ms when it did. */
export interface StartPhase { name: string; wallMs: number; cpuMs: number }

/** Marks of one process's start, in order. */
export class StartPhases {
  readonly #marks: StartPhase[] = [];

  /** Marks the end of `name` now. `performance.now()` counts from the process's start. */
  mark(name: string): void {
    const cpu = process.cpuUsage();
    this.#marks.push({ name, wallMs: Math.round(performance.now()), cpuMs: Math.round((cpu.user + cpu.system) / 1000) });
  }

  has(name: string): boolean {
    return this.#marks.some((m) => m.name === name);
  }

  /** A copy of the marks so far. */
  list(): StartPhase[] {
    return this.#marks.map((m) => ({ ...m }));
  }
}

/**
 * Marks as per-phase durations (`{ name, wallMs, cpuMs }` of each phase alone); `[]` for anything
 * malformed (the first chunk's marks come from a process that ran pages).
 */
export function phaseDurations(raw: unknown): StartPhase[] {
  if (!Array.isArray(raw) || raw.length > 8) return [];
  const out: StartPhase[] = [];
  let prev = { wallMs: 0, cpuMs: 0 };
  for (const m of raw as Array<Partial<StartPhase>>) {
    if (typeof m?.name !== 'string' || typeof m.wallMs !== 'number' || typeof m.cpuMs !== 'number') return [];
    out.push({ name: m.name.slice(0, 40), wallMs: m.wallMs - prev.wallMs, cpuMs: m.cpuMs - prev.cpuMs });
    prev = { wallMs: m.wallMs, cpuMs: m.cpuMs };
  }
  return out;
}
