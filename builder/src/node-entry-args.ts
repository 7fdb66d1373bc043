/**
 * How this process starts another of the builder's TypeScript entries (itself as the build's
 * child, a build process) in a child Node process: the way it was started itself.
 *
 * Under tsx (`node --import tsx`, tests) Node's own options carry the loader, so they are
 * enough. Started from a cached bundle (`scripts/bin/run-bundled.mjs`, the npm commands) they
 * hold nothing of the kind: the launcher leaves a function saying how, and the child starts
 * through the launcher again (from its bundle), or through tsx when bundling could not work.
 */

type EntryArgs = (file: string) => string[];

/** Node's arguments (before the child's own) that run `file`, a `.ts` entry of the platform. */
export function nodeEntryArgs(file: string): string[] {
  const launched = (globalThis as Record<symbol, unknown>)[Symbol.for('folio.entry-args')] as EntryArgs | undefined;
  return [...process.execArgv, ...(launched ? launched(file) : [file])];
}
