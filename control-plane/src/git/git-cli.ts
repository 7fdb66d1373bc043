/** Runs the `git` command line (part of every image the control plane runs in). */
import { AppError } from '../errors.ts';
import { startProcess } from './process-starter.ts';

export interface GitRun { stdout: Buffer; code: number }

export function runGit(args: string[], opts: { cwd?: string; input?: Buffer; env?: Record<string, string>; allowFail?: boolean } = {}): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    // Through the process helper: see process-starter.ts.
    const child = startProcess('git', args, { cwd: opts.cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...opts.env } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => reject(new AppError(500, 'internal_error', 'git is not available', { expose: false, cause: e })));
    child.on('close', (code: number | null) => {
      if (code !== 0 && !opts.allowFail) {
        reject(new AppError(500, 'internal_error', `git ${args[0]} failed`, { expose: false, cause: new Error(Buffer.concat(err).toString()) }));
      } else resolve({ stdout: Buffer.concat(out), code: code ?? 1 });
    });
    child.stdin.end(opts.input);
  });
}
