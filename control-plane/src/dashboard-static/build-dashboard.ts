/**
 * Builds the dashboard app (`control-plane/dashboard-app`) with Vite, once per version of its
 * sources, into `node_modules/.cache/folio-dashboard/<version>/`. Like the site template's client
 * bundle it is built on first need, so a fresh clone serves the dashboard with no build step, and an
 * edited source is rebuilt on the next start. Concurrent processes build beside the final folder
 * and rename it into place, so nobody serves half a build.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../errors.ts';

/** The dashboard app's folder. */
export const APP_ROOT = fileURLToPath(new URL('../../dashboard-app/', import.meta.url));

/** What a build produced: every file (relative, `/`-separated) and the entry page's name. */
export interface DashboardBuild { dir: string; files: string[] }

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

/** Hash of everything that shapes the output: sources, page, configs, and the versions of the libraries bundled. */
export function dashboardVersion(): string {
  const hash = createHash('sha256');
  const files = [...listFiles(join(APP_ROOT, 'src')), ...['index.html', 'vite.config.ts', 'tsconfig.json', ...SHARED_SOURCES].map((f) => join(APP_ROOT, f))];
  for (const file of files) hash.update(relative(APP_ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  for (const lib of BUNDLED) hash.update(lib).update(libraryVersion(lib));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Files outside the app that the editor bundles: the template's component catalogue and icon
 * names (completion, the slash menu) and the configuration's JSON schema (docs.json completion).
 */
const SHARED_SOURCES = [
  '../../site-template/src/shared/component-catalogue.ts',
  '../../site-template/src/shared/icon-names.ts',
  '../../builder/schema/docs.schema.json',
];

/** The libraries the app bundles (and Vite, which bundles them): a new version of any is a new build. */
const BUNDLED = [
  'preact', 'uplot', 'vite',
  '@codemirror/state', '@codemirror/view', '@codemirror/commands', '@codemirror/language', '@codemirror/lang-markdown',
  '@codemirror/lang-javascript', '@codemirror/lang-json', '@codemirror/autocomplete', '@codemirror/search', '@codemirror/lint',
  '@lezer/highlight', 'yjs', 'y-codemirror.next', 'y-protocols', '@hocuspocus/provider',
];

/** A library's installed version; packages whose `exports` hide package.json are found from their entry upwards. */
function libraryVersion(lib: string): string {
  let file: string;
  try {
    file = fileURLToPath(import.meta.resolve(`${lib}/package.json`));
  } catch {
    let dir = dirname(fileURLToPath(import.meta.resolve(lib)));
    for (;;) {
      const candidate = join(dir, 'package.json');
      if (existsSync(candidate) && (JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string }).name === lib) break;
      const up = dirname(dir);
      if (up === dir) return 'missing';
      dir = up;
    }
    file = join(dir, 'package.json');
  }
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

async function viteBuild(outDir: string): Promise<string[]> {
  const { build } = await import('vite');
  await build({ configFile: join(APP_ROOT, 'vite.config.ts'), root: APP_ROOT, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  return listFiles(outDir).map((f) => relative(outDir, f).split('\\').join('/'));
}

async function cachedBuild(cacheDir: string): Promise<DashboardBuild> {
  const dir = join(cacheDir, dashboardVersion());
  const manifest = join(dir, 'dashboard-files.json');
  if (existsSync(manifest)) return { dir, files: JSON.parse(await readFile(manifest, 'utf8')) as string[] };
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    const files = await viteBuild(tmp);
    if (!files.includes('index.html')) throw new Error(`the build wrote no index.html (${files.join(', ')})`);
    await writeFile(join(tmp, 'dashboard-files.json'), JSON.stringify(files));
    if (!existsSync(manifest)) await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir).catch((err) => {
      if (!existsSync(manifest)) throw err;
    });
    return { dir, files };
  } catch (err) {
    throw new AppError(503, 'dashboard_unavailable', 'The dashboard could not be built on this server; see its log', { cause: err, expose: true });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

const memory = new Map<string, Promise<DashboardBuild>>();

/**
 * The built dashboard, building it when this version is not in `cacheDir` yet (default
 * `control-plane/node_modules/.cache/folio-dashboard`). One build per process and folder; a failed
 * build is retried on the next call.
 */
export function dashboardBuild(cacheDir = join(APP_ROOT, '../node_modules/.cache/folio-dashboard')): Promise<DashboardBuild> {
  let pending = memory.get(cacheDir);
  if (!pending) {
    pending = cachedBuild(cacheDir);
    memory.set(cacheDir, pending);
    pending.catch(() => memory.delete(cacheDir));
  }
  return pending;
}
