import type { StepTimings } from '../types.ts';

/** What a build reports while it runs (see `BuildOptions.onStep` and `onCompiled`). */
export interface BuildProgress {
  /** A step finished. */
  step(step: keyof StepTimings): void;
  /** `done` of the `total` pages this build compiles are compiled. */
  compiled(done: number, total: number): void;
  /** Ends the progress line (a TTY's line is left as it is). */
  end(): void;
}

/** Where progress goes: a terminal gets one line redrawn in place, anything else plain lines. */
export interface ProgressOutput { isTTY?: boolean; write(text: string): unknown }

const STEP_AFTER: Partial<Record<keyof StepTimings, string>> = {
  clone: 'planning', plan: 'compiling', compile: 'rendering shells', render: 'writing exports', exports: 'indexing search', index: 'publishing',
};

/**
 * Progress of `build-site` and `ci-deploy`. On a terminal: one line redrawn in place with the
 * step, pages compiled of total, the rate and the time left (`compiling 400/1000 pages · 52
 * pages/s · about 12 s left`). Elsewhere (CI logs): a plain line per finished step, and one per
 * compile batch, so a log shows where a slow build spends its time without control characters.
 */
export function createProgress(out: ProgressOutput, now: () => number = () => performance.now()): BuildProgress {
  const started = now();
  let stepStarted = started;
  let compileStarted: number | undefined;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const draw = (text: string) => { if (out.isTTY) out.write(`\r\x1b[K${text}`); };
  return {
    step(step) {
      const at = now();
      if (out.isTTY) draw(`${STEP_AFTER[step] ?? step}…`);
      else out.write(`step ${step} done in ${seconds(at - stepStarted)}\n`);
      stepStarted = at;
      if (step === 'plan') compileStarted = at;
    },
    compiled(done, total) {
      const at = now();
      const elapsed = at - (compileStarted ?? started);
      const rate = elapsed > 0 ? (done * 1000) / elapsed : 0;
      const left = rate > 0 ? ((total - done) / rate) * 1000 : undefined;
      const perSecond = rate < 10 ? rate.toFixed(1) : String(Math.round(rate));
      if (out.isTTY) draw(`compiling ${done}/${total} pages · ${perSecond} pages/s${left !== undefined && done < total ? ` · about ${Math.ceil(left / 1000)} s left` : ''}`);
      else out.write(`compiled ${done}/${total} pages (${perSecond} pages/s)\n`);
    },
    end() {
      if (out.isTTY) out.write('\r\x1b[K');
    },
  };
}
