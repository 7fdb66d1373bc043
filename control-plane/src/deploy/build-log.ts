/**
 * The build log kept with a deployment. While it builds, the lines the worker sends as it goes
 * (steps as they end, failed pages as they are known; {@link appendLog}); once it ended, what the
 * worker's final report says, one line each —
 * every failed page (`file:line:column: message`) or the error that failed the build, the
 * warnings, the steps with their timings, and the outcome. Bounded so that a build with
 * thousands of broken pages cannot grow the deployment's document without limit.
 */
import type { JobReport } from '@folio/builder';

/** Most lines a deployment's log keeps. */
export const MAX_LOG_LINES = 500;
/** Most bytes (UTF-8) a deployment's log keeps. */
export const MAX_LOG_BYTES = 64 * 1024;
/** Longest line kept; longer ones are cut with `…`. */
const MAX_LINE = 2_000;

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const cut = (line: string) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line);

/** `lines` within {@link MAX_LOG_LINES} and {@link MAX_LOG_BYTES}, the last line saying how many were left out. */
export function boundLog(lines: string[]): string[] {
  const all = lines.map(cut);
  const size = (l: string) => Buffer.byteLength(l) + 1;
  if (all.length <= MAX_LOG_LINES && all.reduce((n, l) => n + size(l), 0) <= MAX_LOG_BYTES) return all;
  // One line and 64 bytes are kept back for the note saying what was left out.
  const kept: string[] = [];
  let bytes = 0;
  for (const line of all) {
    if (kept.length >= MAX_LOG_LINES - 1 || bytes + size(line) > MAX_LOG_BYTES - 64) break;
    kept.push(line);
    bytes += size(line);
  }
  kept.push(`… ${all.length - kept.length} more lines not kept`);
  return kept;
}

const NOT_KEPT = /^… (\d+) more lines not kept$/;

/**
 * `log` (a live log, kept within the bounds by {@link boundLog}) with `lines` appended: once it is
 * full, its last line only counts what else arrived.
 */
export function appendLog(log: readonly string[], lines: readonly string[]): string[] {
  const full = NOT_KEPT.exec(log.at(-1) ?? '');
  if (full) return [...log.slice(0, -1), `… ${Number(full[1]) + lines.length} more lines not kept`];
  return boundLog([...log, ...lines]);
}

/** The log of a build that ended with `report`. */
export function buildLog(report: JobReport): string[] {
  const lines: string[] = [];
  const problems = (report.error ?? '').split('\n').filter((l) => l.trim());
  if (report.status === 'deployed') {
    for (const l of problems) lines.push(`error: ${l}`);
  } else {
    for (const l of problems.length ? problems : ['Build failed']) lines.push(`error: ${l}`);
  }
  for (const w of report.warnings ?? []) lines.push(`warning: ${w}`);
  const stats = report.stats;
  if (stats) {
    for (const [step, ms] of Object.entries(stats.timings ?? {})) lines.push(`step ${step}: ${Math.round(ms)} ms`);
    lines.push(`compiled ${count(stats.compiled, 'page')}, uploaded ${count(stats.uploaded, 'file')}, deleted ${count(stats.deleted, 'file')}`);
  }
  if (report.status === 'deployed') lines.push(`deployed ${report.pages_total ?? 0} pages (${report.pages_failed ?? 0} failed)`);
  else lines.push('failed');
  return boundLog(lines);
}
