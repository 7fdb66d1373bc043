/**
 * The timeline of one push to live, for `bench:push --timeline`: when each phase happened, in
 * milliseconds since `git push` started, seen from both sides. The control plane's side comes
 * from its queue's events (the benchmark runs the platform in its own process); the worker's from
 * the `phase <name> <deployment>` lines it prints, stamped when they arrive here (a pipe away).
 */
import type { EventEmitter } from 'node:events';
import type { QueueEventMap } from '@folio/control-plane/deploy/queue-events.ts';

/** One recorded moment: what happened, on which side, when (ms since the push started). */
export interface Mark { side: 'bench' | 'control plane' | 'worker'; what: string; at: number }

export interface PushTimeline {
  /** Starts a new edit's timeline: marks before this belong to the previous edit. */
  begin(): void;
  mark(side: Mark['side'], what: string): void;
  /** Feeds one line a worker printed; `phase …` lines become marks. */
  workerLine(line: string): void;
  /** The marks of the current edit, in time order. */
  marks(): Mark[];
  stop(): void;
}

/** Records queue events of `events` and worker phase lines into per-edit timelines. */
export function pushTimeline(events: EventEmitter<QueueEventMap>): PushTimeline {
  let t0 = performance.now();
  let list: Mark[] = [];
  const mark = (side: Mark['side'], what: string) => { list.push({ side, what, at: performance.now() - t0 }); };
  const onQueued = () => mark('control plane', 'queued');
  const onClaimed = (e: QueueEventMap['claimed'][0]) => mark('control plane', `claimed (waited ${e.waitMs} ms in the queue)`);
  const onFinished = (e: QueueEventMap['finished'][0]) => mark('control plane', `report recorded: ${e.status}`);
  events.on('queued', onQueued);
  events.on('claimed', onClaimed);
  events.on('finished', onFinished);
  return {
    begin() { t0 = performance.now(); list = []; },
    mark,
    workerLine(line) {
      const m = /^phase (\S+) /.exec(line);
      if (m) mark('worker', m[1]);
    },
    marks: () => [...list].sort((a, b) => a.at - b.at),
    stop() {
      events.off('queued', onQueued);
      events.off('claimed', onClaimed);
      events.off('finished', onFinished);
    },
  };
}

/** The marks as aligned lines, each with the time since the one before. */
export function formatTimeline(marks: Mark[], buildTimings?: Record<string, number>): string {
  const lines: string[] = [];
  let prev = 0;
  for (const m of marks) {
    lines.push(`  ${m.at.toFixed(0).padStart(6)} ms (+${(m.at - prev).toFixed(0).padStart(4)})  ${m.side.padEnd(13)} ${m.what}`);
    prev = m.at;
  }
  if (buildTimings) lines.push(`  build steps (worker, ms): ${Object.entries(buildTimings).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')}`);
  return lines.join('\n');
}
