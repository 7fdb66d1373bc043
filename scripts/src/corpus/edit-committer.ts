/**
 * Commits the benchmark's edits from a small process of its own, so the builder being measured
 * never starts a process itself.
 *
 * Why: starting a process forks the caller, and after a fork every page of memory the caller
 * writes takes a copy-on-write fault, however quickly the child goes away, which would be
 * counted as the builder's own time (figures: docs/benchmarks.md, "Processes and forks"). The
 * deployment worker's build process fetches with isomorphic-git and starts nothing per job, so
 * a benchmark of it must not either. The helper is forked first, while the builder's heap is
 * still small.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { nodeEntryArgs } from '@folio/builder/internal/node-entry-args.ts';
import { fileURLToPath } from 'node:url';
import type { CorpusFile } from './corpus-stats.ts';
import { commitEdit } from './bench-corpus.ts';

type Request = { dir: string; page: CorpusFile; variant: number };

/** The committer: `commit` does what `commitEdit` does, in the helper process. */
export interface EditCommitter {
  commit(dir: string, page: CorpusFile, variant: number): Promise<void>;
  close(): void;
}

/** Starts the helper (this module, run as a script, the way this process was started: through tsx or from a bundle). */
export function startEditCommitter(): EditCommitter {
  const child: ChildProcess = spawn(process.execPath, [...nodeEntryArgs(fileURLToPath(import.meta.url)), '--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let queue: Promise<void> = Promise.resolve();
  return {
    commit(dir, page, variant) {
      const next = queue.then(() => new Promise<void>((resolve, reject) => {
        child.once('message', (reply: { error?: string }) => (reply.error ? reject(new Error(reply.error)) : resolve()));
        child.send({ dir, page, variant } satisfies Request);
      }));
      queue = next.catch(() => undefined);
      return next;
    },
    close: () => { child.kill(); },
  };
}

if (process.argv[2] === '--serve') {
  process.on('message', (req: Request) => {
    try {
      commitEdit(req.dir, req.page, req.variant);
      process.send!({});
    } catch (err) {
      process.send!({ error: err instanceof Error ? err.message : String(err) });
    }
  });
  process.on('disconnect', () => process.exit(0));
}
