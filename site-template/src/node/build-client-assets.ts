import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MERMAID_DIR } from '../shared/mermaid-dir.ts';
import type { Rolldown } from 'vite';
import type { ClientAssets, ThemeName } from '../shared/types.ts';
import { TemplateError } from './template-error.ts';
import { PACKAGE_ROOT, TEMPLATE_VERSION } from './template-version.ts';
import { THEMES } from './theme-traits.ts';

/** Folder under the site root that holds the client bundle. */
export const ASSET_DIR = '_folio';

/** Options of `buildClientAssets`. */
export interface BuildClientAssetsOptions {
  /** Where built bundles are kept per template version. Default `<package>/node_modules/.cache/folio-client`. */
  cacheDir?: string;
}

interface CachedBuild { assets: ClientAssets; files: string[] }

const memory = new Map<string, Promise<CachedBuild>>();

async function viteBuild(dir: string): Promise<CachedBuild> {
  // Loaded only when the bundle is built (once per template version): importing Vite costs a
  // process about as much as everything else the builder loads, and a build or a preview that
  // finds the bundle in its cache folder never needs it.
  const { build } = await import('vite');
  const input: Record<string, string> = { client: join(PACKAGE_ROOT, 'src/client/main.ts') };
  for (const theme of THEMES) input[`theme-${theme}`] = join(PACKAGE_ROOT, `src/styles/themes/${theme}.css`);
  const result = await build({
    configFile: false,
    root: PACKAGE_ROOT,
    logLevel: 'silent',
    publicDir: false,
    build: {
      outDir: dir,
      emptyOutDir: true,
      target: 'es2022',
      cssCodeSplit: true,
      modulePreload: false,
      reportCompressedSize: false,
      rolldownOptions: {
        input,
        output: { entryFileNames: '[name]-[hash].js', chunkFileNames: '[name]-[hash].js', assetFileNames: '[name]-[hash][extname]' },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const files: string[] = [];
  const css: Partial<Record<ThemeName, string>> = {};
  let js = '';
  for (const item of outputs.flatMap((o) => o.output)) {
    files.push(item.fileName);
    if (item.type === 'chunk' && item.isEntry && item.name === 'client') js = `/${ASSET_DIR}/${item.fileName}`;
    const m = /^theme-([a-z]+)-[\w-]+\.css$/.exec(item.fileName);
    if (m && (THEMES as string[]).includes(m[1])) css[m[1] as ThemeName] = `/${ASSET_DIR}/${item.fileName}`;
  }
  // Mermaid's own minified ES build (its entry and the chunks it imports, no source maps): the
  // client loads it only on pages with a diagram. Bundling it ourselves would cost a long build
  // for the same files.
  const mermaid = join(dirname(createRequire(import.meta.url).resolve('mermaid/package.json')), 'dist');
  const chunks = readdirSync(join(mermaid, 'chunks/mermaid.esm.min')).filter((f) => f.endsWith('.mjs'));
  await mkdir(join(dir, MERMAID_DIR, 'chunks/mermaid.esm.min'), { recursive: true });
  for (const f of ['mermaid.esm.min.mjs', ...chunks.map((c) => `chunks/mermaid.esm.min/${c}`)]) {
    await cp(join(mermaid, f), join(dir, MERMAID_DIR, f));
    files.push(`${MERMAID_DIR}/${f}`);
  }
  if (!js || THEMES.some((t) => !css[t])) throw new TemplateError(`Unexpected client build output ${files.join(', ')}; expected the client script and one stylesheet per theme`);
  return { assets: { js, css: css as Record<ThemeName, string> }, files: files.sort() };
}

async function cachedBuild(cacheDir: string): Promise<CachedBuild> {
  const dir = join(cacheDir, TEMPLATE_VERSION);
  const manifest = join(dir, 'folio-assets.json');
  if (existsSync(manifest)) return JSON.parse(await readFile(manifest, 'utf8')) as CachedBuild;
  // Build beside the final folder and rename it into place, so a concurrent builder never sees half a bundle.
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    const built = await viteBuild(tmp);
    await writeFile(join(tmp, 'folio-assets.json'), JSON.stringify(built));
    // A folder without a manifest is what an interrupted build leaves behind; it would block the rename.
    if (!existsSync(manifest)) await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir).catch(async (err) => {
      if (!existsSync(manifest)) throw err;
    });
    return built;
  } catch (err) {
    throw err instanceof TemplateError ? err : new TemplateError('Unexpected failure building the client bundle', { cause: err });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The client bundle as kept in its cache folder. */
export interface CachedClientAssets {
  /** Site-relative URLs of the script and each theme's stylesheet. */
  assets: ClientAssets;
  /** The bundle's file names, relative to `_folio/` on the site and to `dir`. */
  files: string[];
  /** The cache folder of this template version that holds them; never changed once written. */
  dir: string;
}

/**
 * The client script and one stylesheet per theme, built with Vite once per `TEMPLATE_VERSION`
 * (kept in memory and in `cacheDir`, default `<package>/node_modules/.cache/folio-client`), where
 * they lie in the cache: a caller that needs only some of the files (a build whose previous
 * deployment already holds them needs none) reads those, instead of a copy of all of them.
 */
export async function cachedClientAssets(options: BuildClientAssetsOptions = {}): Promise<CachedClientAssets> {
  const cacheDir = options.cacheDir ?? join(PACKAGE_ROOT, 'node_modules/.cache/folio-client');
  const key = `${cacheDir}\0${TEMPLATE_VERSION}`;
  let pending = memory.get(key);
  if (!pending) {
    pending = cachedBuild(cacheDir);
    memory.set(key, pending);
    pending.catch(() => memory.delete(key));
  }
  const built = await pending;
  return { assets: built.assets, files: built.files, dir: join(cacheDir, TEMPLATE_VERSION) };
}

/**
 * Copies the client bundle (`cachedClientAssets`) under `<outDir>/_folio/` with content-hashed
 * names. Returns their site-relative URLs and the copied file names (relative to `_folio/`).
 * A second call in the same process only copies files.
 */
export async function buildClientAssets(outDir: string, options: BuildClientAssetsOptions = {}): Promise<{ assets: ClientAssets; files: string[] }> {
  const { assets, files, dir } = await cachedClientAssets(options);
  const target = join(outDir, ASSET_DIR);
  await mkdir(target, { recursive: true });
  await Promise.all(files.map((f) => cp(join(dir, f), join(target, f))));
  return { assets, files };
}
