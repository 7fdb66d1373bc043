/**
 * A platform in a process of its own, for tests that kill it (SIGKILL) and start another on the
 * same data directory: `main` prints `READY <json>` once it serves; the answer is the child and
 * that JSON. The child is killed when the test ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Test } from 'tap';

export function startPlatformProcess(t: Test, main: string, env: Record<string, string>): Promise<{ child: ChildProcess; info: Record<string, string> }> {
  const child = spawn(process.execPath, ['--import=tsx', main], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => { child.kill('SIGKILL'); });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`platform exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('READY ')) resolve({ child, info: JSON.parse(line.slice(6)) });
    });
  });
}
