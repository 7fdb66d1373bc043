/**
 * How a build process is started (by the CLI, the deployment worker and `bench:build`): the
 * builder's entry as `nodeEntryArgs` runs it, with a smaller young generation and allocators that
 * hand memory back (allocator-env.ts). A 10,000-page build process then peaks ~90 MB lower while
 * its sandboxes compile (builder docs/benchmarks.md, "Peak memory").
 */
import { ALLOCATOR_ENV, SEMI_SPACE_FLAG, withHugePages } from './allocator-env.ts';
import { nodeEntryArgs } from './node-entry-args.ts';

/** Node's arguments that run `file` (a `.ts` entry) as a build process. */
export function buildProcessArgs(file: string): string[] {
  return [SEMI_SPACE_FLAG, ...nodeEntryArgs(file)];
}

/** A build process's environment: `env` (already scrubbed by the caller) plus the allocators' settings, huge pages for glibc's large blocks included. */
export function buildProcessEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, ...ALLOCATOR_ENV, GLIBC_TUNABLES: withHugePages(env.GLIBC_TUNABLES) };
}
