/**
 * The compile sandbox's own process (started by `sandbox-process.ts` under Node's permission
 * model): one in-process compiler (its highlighter and Vite). Talks to the builder over the IPC
 * channel only; repository reads for imports are asked of the builder, which owns the checkout, so
 * the sandbox cannot read any file of the repository it was not given.
 *
 * In: `{ type: 'init', themes, staticPath, template }`, `{ type: 'compile', batch, inputs }`, `{ type: 'read-result', id, text }`.
 * Out: `{ type: 'ready', phases }`, `{ type: 'read', batch, id, path }`, `{ type: 'done', batch, results, staticPages, phases? }`,
 * `{ type: 'error', batch, message }`.
 */
import { fsCompat, lockDown } from './lockdown.ts';
import { outputSize, outputTooLarge } from './page-output.ts';
import type { CompileInput } from '../compile/compiler.ts';
import type { CodeThemes } from '../compile/highlighter.ts';
import { StartPhases } from './start-phases.ts';
import { ALLOCATOR_ENV } from '../allocator-env.ts';

// Where a sandbox's start goes (reported with `ready` and the first `done`; see the builder
// README's performance section): Node's own start, module loading, the compiler, the first page.
const phases = new StartPhases();
phases.mark('node');
fsCompat();
// Node took its code cache folder (code-cache.ts) from the environment when it started; pages
// need not see the variable.
delete process.env.NODE_COMPILE_CACHE;
// Imported after fsCompat(): Vite probes the file system while its modules load.
const { createLocalCompiler } = await import('../compile/local-compiler.ts');
phases.mark('modules');

type Inbound =
  | { type: 'init'; themes?: CodeThemes; staticPath?: boolean; template?: string }
  | { type: 'compile'; batch: number; inputs: CompileInput[] }
  | { type: 'read-result'; id: number; text?: string };

// Captured before any page runs: page code then finds no way to speak on the channel.
const send = process.send!.bind(process);
const reads = new Map<number, (text: string | undefined) => void>();
let nextRead = 0;
let compiler: Awaited<ReturnType<typeof createLocalCompiler>> | undefined;

const contextOf = (batch: number) => ({
  readFile(path: string): Promise<string | undefined> {
    const id = nextRead++;
    return new Promise<string | undefined>((resolve) => {
      reads.set(id, resolve);
      send({ type: 'read', batch, id, path });
    });
  },
});

/** The phases again with the first chunk's answer, which includes the first page's warm-up. */
const firstDone = () => {
  if (phases.has('first chunk')) return {};
  phases.mark('first chunk');
  return { phases: phases.list() };
};

const onMessage = async (msg: Inbound) => {
  if (msg.type === 'init') {
    // With the template's bundle, Vite loads when a page first needs it, and the lockdown (which
    // denies loading native code, as Vite's bundler does) waits for it: until then no page code
    // runs, only the platform's static path (compile/static-page.ts).
    let locked = false;
    const lock = () => {
      if (locked) return;
      locked = true;
      // Read by the allocators as they started (Vite's addon is loaded by now): pages need not see them.
      for (const name of Object.keys(ALLOCATOR_ENV)) delete process.env[name];
      lockDown();
    };
    compiler = await createLocalCompiler({ themes: msg.themes, staticPath: msg.staticPath, template: msg.template, beforePageCode: lock });
    phases.mark('compiler');
    send({ type: 'ready', phases: phases.list() });
  } else if (msg.type === 'read-result') {
    reads.get(msg.id)?.(msg.text);
    reads.delete(msg.id);
  } else if (msg.type === 'compile' && compiler) {
    const own = compiler;
    // Chunks run one at a time: the count's difference is this chunk's static pages.
    const staticBefore = own.staticPages();
    own.compile(msg.inputs, contextOf(msg.batch)).then(
      // An oversized page is failed here, before its bytes cross to the builder (which checks again).
      (results) => send({ type: 'done', batch: msg.batch, ...firstDone(), staticPages: own.staticPages() - staticBefore, results: results.map((r) => {
        const tooLarge = 'bodyHtml' in r ? outputTooLarge(outputSize(r)) : undefined;
        return tooLarge ? { sourcePath: r.sourcePath, message: tooLarge } : r;
      }) }),
      (err: unknown) => send({ type: 'error', batch: msg.batch, message: err instanceof Error ? err.message : String(err) }),
    );
  }
};
process.on('message', (msg: Inbound) => void onMessage(msg));
// The builder went away: nothing is left to compile for.
process.on('disconnect', () => process.exit(0));
delete (process as { send?: unknown }).send;
