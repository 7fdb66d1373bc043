/**
 * Sends a build's log lines to the control plane while the build runs, batched: at most one
 * request every `intervalMs`, one at a time, each at most {@link MAX_LOG_LINES_PER_REQUEST} lines
 * of at most {@link MAX_LOG_LINE_LENGTH} characters. Lines waiting are bounded too (a build with
 * thousands of failed pages sends a count for the rest). The live log is a courtesy: a request
 * that fails loses its lines, never the build; the final report carries the log that is kept.
 */
import { LeaseLostError } from '../errors.ts';
import { MAX_LOG_LINE_LENGTH, MAX_LOG_LINES_PER_REQUEST } from './protocol.ts';

/** Default time between two log requests. */
export const LOG_INTERVAL_MS = 500;
/** Most lines waiting to be sent; more are counted, not kept. */
export const MAX_PENDING_LOG_LINES = 500;

export interface BuildLogSenderOptions {
  /** Time between two log requests (default {@link LOG_INTERVAL_MS}). */
  intervalMs?: number;
  /** Called when the control plane answers that the lease is lost (nothing more is sent). */
  onLeaseLost?(): void;
}

/** Batches lines and sends them with `send` (the control-plane client's `log`). */
export class BuildLogSender {
  private pending: string[] = [];
  private dropped = 0;
  private sending: Promise<void> | undefined;
  private stopped = false;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly send: (lines: string[]) => Promise<void>;
  private readonly onLeaseLost?: () => void;

  constructor(send: (lines: string[]) => Promise<void>, opts: BuildLogSenderOptions = {}) {
    this.send = send;
    this.onLeaseLost = opts.onLeaseLost;
    this.timer = setInterval(() => { if (!this.sending) this.sending = this.flush(1).finally(() => { this.sending = undefined; }); }, opts.intervalMs ?? LOG_INTERVAL_MS);
    this.timer.unref?.();
  }

  /** Queues `line` for the next request. */
  add(line: string): void {
    if (this.stopped) return;
    if (this.pending.length >= MAX_PENDING_LOG_LINES) { this.dropped++; return; }
    this.pending.push(line.length > MAX_LOG_LINE_LENGTH ? `${line.slice(0, MAX_LOG_LINE_LENGTH - 1)}…` : line);
  }

  /** Stops the timer and sends what is still waiting (before the final report, so lines arrive in order). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.sending;
    await this.flush(Infinity);
    this.stopped = true;
  }

  /** Stops without sending what is waiting (the job was handed back, or the build is over). */
  stop(): void {
    clearInterval(this.timer);
    this.stopped = true;
    this.pending = [];
  }

  /** Sends up to `requests` batches of what is waiting. */
  private async flush(requests: number): Promise<void> {
    for (let i = 0; i < requests && !this.stopped; i++) {
      if (this.dropped && this.pending.length < MAX_PENDING_LOG_LINES) {
        this.pending.push(`… ${this.dropped} more lines not sent while building`);
        this.dropped = 0;
      }
      if (!this.pending.length) return;
      const batch = this.pending.splice(0, MAX_LOG_LINES_PER_REQUEST);
      try {
        await this.send(batch);
      } catch (err) {
        if (err instanceof LeaseLostError) { this.stopped = true; this.pending = []; this.onLeaseLost?.(); }
      }
    }
  }
}
