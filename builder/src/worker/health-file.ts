/**
 * A liveness signal for container health checks: rewrites a file every `intervalMs` while the
 * process's event loop runs, so `docker/builder-healthcheck.mjs` can tell a working builder from a
 * wedged one by the file's age. Builds keep the loop turning (MDX compiles in worker threads,
 * uploads are asynchronous), so a stale file means the process stopped making progress.
 */
import { writeFileSync } from 'node:fs';

/** Starts the signal; returns a function that stops it. `intervalMs` defaults to 5000. */
export function startHealthFile(file: string, intervalMs = 5000): () => void {
  const touch = () => {
    try {
      writeFileSync(file, `${new Date().toISOString()}\n`);
    } catch {
      // An unwritable file shows up as "unhealthy" in the check, which is where it belongs.
    }
  };
  touch();
  const timer = setInterval(touch, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
