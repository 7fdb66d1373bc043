/**
 * Runs builder workers as child processes of `npm start` and `npm run demo`: customer MDX runs
 * there, never in the control plane's process, and with only the variables a worker needs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Env } from '@folio/control-plane';

const WORKER_MAIN = fileURLToPath(new URL('../../builder/src/worker/main.ts', import.meta.url));

export interface Workers { children: ChildProcess[]; stop(): Promise<void> }

export function spawnWorkers(count: number, opts: { env: Env; controlPlaneUrl: string; workerSecret: string; quiet?: boolean }): Workers {
  const storeVars = ['S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  const children = Array.from({ length: count }, () => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH, HOME: process.env.HOME,
      CONTROL_PLANE_URL: opts.controlPlaneUrl, WORKER_SECRET: opts.workerSecret, DATA_DIR: opts.env.dataDir,
      S3_FORCE_PATH_STYLE: String(opts.env.S3_FORCE_PATH_STYLE),
    };
    for (const name of storeVars) if (opts.env[name]) env[name] = String(opts.env[name]);
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
