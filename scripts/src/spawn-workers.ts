/**
 * Runs builder workers as child processes of `npm start` and `npm run demo`, with only the
 * variables a worker needs. Customer MDX never runs in the control plane's process, nor in the
 * worker's: each job builds in its own process, and pages compile in sandboxes below it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Env } from '@folio/control-plane';

const WORKER_MAIN = fileURLToPath(new URL('../../builder/src/worker/main.ts', import.meta.url));

export interface Workers { children: ChildProcess[]; stop(): Promise<void> }

export function spawnWorkers(count: number, opts: { env: Env; controlPlaneUrl: string; workerSecret: string; quiet?: boolean }): Workers {
  const children = Array.from({ length: count }, () => {
    // No storage or database settings: build processes publish through the control plane.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH, HOME: process.env.HOME,
      CONTROL_PLANE_URL: opts.controlPlaneUrl, WORKER_SECRET: opts.workerSecret,
    };
    const child = spawn(process.execPath, ['--import=tsx', WORKER_MAIN], { env, stdio: ['ignore', opts.quiet ? 'ignore' : 'inherit', 'inherit'] });
    return child;
  });
  return {
    children,
    async stop() {
      await Promise.all(children.map((c) => new Promise<void>((resolve) => {
        if (c.exitCode !== null) return resolve();
        c.once('exit', () => resolve());
        c.kill('SIGTERM');
      })));
    },
  };
}
