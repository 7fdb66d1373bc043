/**
 * The control plane's operational log: one line per event, as text for a terminal or as JSON
 * lines (`LOG_FORMAT=json`) for a log pipeline. Configured once at start-up from the environment
 * (`LOG_FORMAT`, `LOG_LEVEL`); every part of the process logs through it, so a deployment's
 * outcome is written once, wherever the deployment ended (a worker's report, an expired lease,
 * a stopped CI run).
 */

/** Values a log line carries besides its message. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export type LogFormat = 'text' | 'json';
export type LogLevel = 'silent' | 'error' | 'info' | 'debug';

interface LogConfig { format: LogFormat; level: LogLevel; write(line: string): void }

const RANK: Record<LogLevel, number> = { silent: 0, error: 1, info: 2, debug: 3 };
const config: LogConfig = { format: 'text', level: 'info', write: (line) => process.stdout.write(`${line}\n`) };

/** Sets the format, level and (for tests) where lines go; unset options keep their value. */
export function configureLog(opts: Partial<LogConfig>): void {
  Object.assign(config, opts);
}

/**
 * Writes one event. JSON lines read `{"time","level","event","message",...fields}` (fields that
 * are undefined left out); text lines are the message alone.
 */
export function logEvent(level: Exclude<LogLevel, 'silent'>, event: string, message: string, fields: LogFields = {}): void {
  if (RANK[level] > RANK[config.level]) return;
  if (config.format === 'text') { config.write(message); return; }
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  config.write(JSON.stringify({ time: new Date().toISOString(), level, event, message, ...defined }));
}
