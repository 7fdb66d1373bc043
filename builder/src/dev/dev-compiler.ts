import type { Compiler } from '../compile/compiler.ts';
import { MANIFEST_KEY } from '../state/manifest.ts';
import type { ObjectStore } from '../store/object-store.ts';

/** Sandboxes are never stopped for idleness during a session: the next edit must not pay their start. */
const KEEP_SANDBOXES_MS = Number.POSITIVE_INFINITY;

/**
 * The preview's compiler. With an empty cache (no manifest: the first build compiles every page;
 * only its existence is asked, since reading it means reading every bucket it lists) its first
 * sandbox starts at once: the page a visitor opens first waits for that sandbox's ~1.6 s of CPU
 * (see builder docs/benchmarks.md, "Where a sandbox's start goes"), so `startDev` calls this before it
 * loads the session, the server and the configuration's schema, and the sandbox starts beside
 * them. With the cache kept a start may compile nothing, so the sandbox starts when a page
 * first compiles. Close the compiler when the preview stops.
 */
export async function startDevCompiler(store: ObjectStore): Promise<Compiler> {
  const [{ createCompiler }, manifest] = await Promise.all([import('../sandbox/index.ts'), store.head(MANIFEST_KEY).catch(() => undefined)]);
  const compiler = await createCompiler({ idleMs: KEEP_SANDBOXES_MS });
  if (!manifest) compiler.prepare();
  return compiler;
}
