/**
 * Makes the sandboxes' code cache (sandbox/code-cache.ts) once per platform version: the first
 * compiler that finds none starts a recording sandbox in the background, which compiles the
 * platform's own synthetic page and ends normally. Sandboxes started before it is saved start
 * without one, as they always did.
 */
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
// The version alone: the template's renderer and components are not needed to start a sandbox.
import { TEMPLATE_VERSION } from '@folio/site-template/node/template-version.ts';
import { CODE_CACHE_ROOT } from './code-cache.ts';
import { PLATFORM_ROOT } from './runtime.ts';
import { startSandbox } from './sandbox-process.ts';
import { syntheticPage } from '../compile/synthetic-page.ts';

let template: string | undefined;

/**
 * The template folder for this platform version: the dependencies (lockfile), the site template's
 * version and the builder's compile and sandbox sources (sizes and times), hashed.
 */
export function codeCacheTemplate(): string {
  if (template) return template;
  const hash = createHash('sha256').update(TEMPLATE_VERSION);
  const lockfile = path.join(PLATFORM_ROOT, 'package-lock.json');
  if (existsSync(lockfile)) hash.update(readFileSync(lockfile));
  for (const dir of ['compile', 'sandbox']) {
    const folder = path.join(PLATFORM_ROOT, 'builder', 'src', dir);
    for (const name of readdirSync(folder).sort()) {
      const stat = statSync(path.join(folder, name));
      hash.update(`${dir}/${name} ${stat.size} ${stat.mtimeMs}\n`);
    }
  }
  template = path.join(CODE_CACHE_ROOT, hash.digest('hex').slice(0, 16));
  return template;
}

let warming: Promise<void> | undefined;

/**
 * Whether templates can be saved here: an image's read-only platform folder cannot take one
 * (the image records its template when it is built), and recording for nothing would cost every
 * build process a sandbox start.
 */
function writable(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Records the code cache when this platform version has none (once per process; later calls
 * return the same promise). Never rejects: without a cache sandboxes only start slower.
 */
export function warmCodeCache(opts: { osLayers?: boolean; heapMb: number }): Promise<void> {
  warming ??= (async () => {
    const target = codeCacheTemplate();
    if (existsSync(target) || !writable(CODE_CACHE_ROOT)) return;
    const box = startSandbox({ limits: { heapMb: opts.heapMb }, osLayers: opts.osLayers, codeCache: { template: target, record: true } });
    try {
      // One page on each path: the synthetic page takes the static path (compile/static-page.ts);
      // with an export of its own the same page goes through Vite, recma and the module runner.
      const pages = [syntheticPage(1), `${syntheticPage(2)}\nexport const warm = 1;\n`]
        .map((source, i) => ({ sourcePath: `docs/warm-up-${i}.mdx`, source, contentRoot: 'docs/' }));
      await box.compile(pages, { readFile: async () => undefined }, { cpuMs: 60_000, wallMs: 120_000 });
    } catch {
      // No cache this time: the next process tries again.
    } finally {
      await box.close(true);
    }
  })();
  return warming;
}
