/**
 * Worker-thread side of the compile pool: one in-thread compiler (its own highlighter and Vite)
 * per worker. Repository reads for imports are asked of the parent, which owns the context.
 *
 * Messages in: `{ type: 'compile', batch, inputs }`, `{ type: 'read-result', id, text }`. Out: `{ type: 'ready' }`, `{ type: 'read', batch, id, path }`,
 * `{ type: 'done', batch, results }` or `{ type: 'error', batch, message }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { CompileInput } from './compiler.ts';
import { createLocalCompiler } from './local-compiler.ts';
import type { CodeThemes } from './highlighter.ts';

const port = parentPort!;
const compiler = await createLocalCompiler({ themes: (workerData as { themes?: CodeThemes } | null)?.themes });
const reads = new Map<number, (text: string | undefined) => void>();
let nextRead = 0;

/** Reads of a batch's imports go to the parent, which holds that batch's context. */
const contextOf = (batch: number) => ({
  readFile(path: string): Promise<string | undefined> {
    const id = nextRead++;
    return new Promise<string | undefined>((resolve) => {
      reads.set(id, resolve);
      port.postMessage({ type: 'read', batch, id, path });
    });
  },
});

port.on('message', (msg: { type: 'compile'; batch: number; inputs: CompileInput[] } | { type: 'read-result'; id: number; text?: string }) => {
  if (msg.type === 'read-result') {
    reads.get(msg.id)?.(msg.text);
    reads.delete(msg.id);
  } else {
    compiler.compile(msg.inputs, contextOf(msg.batch)).then(
      (results) => port.postMessage({ type: 'done', batch: msg.batch, results }),
      (err: unknown) => port.postMessage({ type: 'error', batch: msg.batch, message: err instanceof Error ? err.message : String(err) }),
    );
  }
});
port.postMessage({ type: 'ready' });
