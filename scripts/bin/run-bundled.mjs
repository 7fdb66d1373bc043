#!/usr/bin/env node
/**
 * `node scripts/bin/run-bundled.mjs [--packages=external] <command.ts> [args…]`: runs a
 * TypeScript command from a bundle instead of through tsx, so it starts in a fraction of the time.
 * With `--packages=external` only the project's own modules are bundled and installed packages
 * load from `node_modules` as usual (the builder's commands: Vite cannot be bundled);
 * `--cache-dir` overrides `FOLIO_CLI_CACHE_DIR`. With `--prepare` the bundle is made (or found current) and
 * the command is not run: an image makes its commands' bundles when it is built (exit 1 when
 * bundling failed).
 *
 * Why: through tsx, every module a command loads (mongoose, the MongoDB driver, zod: about a
 * thousand files) passes through tsx's resolve and load hooks, and the tsx CLI starts a second
 * Node process. One esbuild bundle (with the lazily imported parts split into their own chunks,
 * so `--help` loads almost nothing) is read by plain Node.
 *
 * The bundle is built on first use and cached under `node_modules/.cache/folio-cli/` (or
 * `FOLIO_CLI_CACHE_DIR`), keyed by a hash of everything it was built from: the content of the
 * project's files, the size and modification time of the installed packages' files, and the
 * esbuild version. Editing a source file or reinstalling a package rebuilds it on the next run.
 * If esbuild cannot bundle the command, it runs through tsx as before.
 *
 * Plain JavaScript on purpose: it must run before anything can load TypeScript.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Fingerprint of a bundle's inputs (paths relative to `root`): content hashes for the project's
 * files, size and mtime for installed packages (thousands of files that change only on install).
 * @param {string[]} inputs
 * @param {string} esbuildVersion
 * @returns {string | undefined} undefined when an input is gone
 */
function fingerprint(inputs, esbuildVersion) {
  // The checkout's own path too: the bundle holds the absolute locations of the modules it was
  // made from (see `sourceLocations`), so a moved or copied checkout needs a bundle of its own.
  const hash = createHash('sha256').update(`esbuild ${esbuildVersion}\n${root}\n`);
  for (const input of inputs) {
    const file = path.resolve(root, input);
    try {
      if (input.split(/[\\/]/).includes('node_modules')) {
        const st = fs.statSync(file);
        hash.update(`${input} ${st.size} ${st.mtimeMs}\n`);
      } else {
        hash.update(`${input} `).update(fs.readFileSync(file)).update('\n');
      }
    } catch {
      return undefined;
    }
  }
  return hash.digest('hex').slice(0, 24);
}

/**
 * An esbuild plugin that leaves installed packages out of the bundle, imported from the files
 * Node would load (absolute paths, as resolved from the importing module's own folder): a
 * package then runs exactly as it does unbundled, whatever it does with its own location,
 * optional imports or native addons (Vite's own build, for one, cannot be bundled). Each file
 * is added to `externals`, so a reinstall that moves or changes it rebuilds the bundle.
 * Workspace packages resolve to their sources outside `node_modules` and are bundled.
 * @param {Set<string>} externals
 * @returns {import('esbuild').Plugin}
 */
function installedPackages(externals) {
  return {
    name: 'installed-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'installed-packages' || args.path.startsWith('node:')) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'installed-packages' });
        if (resolved.errors.length || resolved.external || !resolved.path.split(path.sep).includes('node_modules')) return undefined;
        externals.add(path.relative(root, resolved.path));
        // Its package.json too: a changed "main" or "exports" resolves the import elsewhere.
        const manifest = packageManifest(resolved.path);
        if (manifest) externals.add(path.relative(root, manifest));
        return { path: resolved.path, external: true };
      });
    },
  };
}

/**
 * The package.json of the package `file` belongs to, if any.
 * @param {string} file
 * @returns {string | undefined}
 */
function packageManifest(file) {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) return manifest;
    if (path.basename(dir) === 'node_modules') return undefined;
  }
  return undefined;
}

/**
 * An esbuild plugin that keeps `import.meta.url` (and `dirname`, `filename`) meaning the module's
 * own source file. Bundled, it would name the chunk in the cache instead; the builder locates files next to its modules
 * (the site template's files, the compile sandbox's entry, packages resolved from there), so each
 * module that reads it gets its original file's URL written in. Done with esbuild's own `define`
 * on the parsed module, never a text replacement, so strings and comments are untouched.
 * @param {typeof import('esbuild')} esbuild
 * @returns {import('esbuild').Plugin}
 */
function sourceLocations(esbuild) {
  const loaders = { '.ts': 'ts', '.mts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.jsx': 'jsx' };
  return {
    name: 'source-locations',
    setup(build) {
      build.onLoad({ filter: /\.[mc]?[jt]sx?$/ }, async (args) => {
        const loader = loaders[path.extname(args.path)];
        if (!loader || args.path.split(path.sep).includes('node_modules')) return undefined;
        const source = await fs.promises.readFile(args.path, 'utf8');
        if (!/import\.meta\.(url|dirname|filename)/.test(source)) return undefined;
        const { code } = await esbuild.transform(source, {
          loader,
          sourcefile: args.path,
          define: {
            'import.meta.url': JSON.stringify(pathToFileURL(args.path).href),
            'import.meta.dirname': JSON.stringify(path.dirname(args.path)),
            'import.meta.filename': JSON.stringify(args.path),
          },
          tsconfigRaw: tsconfig(),
        });
        return { contents: code, loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** The project's TypeScript settings (JSX runtime, import elision) for modules `sourceLocations` transforms. */
let tsconfigCache;
function tsconfig() {
  tsconfigCache ??= fs.readFileSync(path.join(root, 'tsconfig.json'), 'utf8');
  return tsconfigCache;
}

/**
 * The cached bundle of `entry` when it is still current, else undefined.
 * @param {string} dir the entry's cache folder
 * @returns {string | undefined} path of the bundle's main file
 */
function currentBundle(dir) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  } catch {
    return undefined;
  }
  const main = path.join(dir, manifest.key, manifest.main);
  if (fingerprint(manifest.inputs, manifest.esbuild) !== manifest.key || !fs.existsSync(main)) return undefined;
  return main;
}

/**
 * Bundles `entry` into `dir/<key>/` and records it in `dir/manifest.json`.
 * @param {string} entry absolute path of the command's file
 * @param {string} dir the entry's cache folder
 * @param {boolean} externalPackages leave installed packages out (`--packages=external`)
 * @returns {Promise<string>} path of the bundle's main file
 */
async function buildBundle(entry, dir, externalPackages) {
  const esbuild = await import('esbuild');
  const externals = new Set();
  const tmp = path.join(dir, `tmp-${process.pid}-${Date.now()}`);
  let result;
  try {
    result = await esbuild.build({
      entryPoints: { main: entry },
      absWorkingDir: root,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outdir: tmp,
      outExtension: { '.js': '.mjs' },
      // Smaller files parse faster; identifiers stay readable in stack traces.
      minifyWhitespace: true,
      minifySyntax: true,
      metafile: true,
      logLevel: 'silent',
      plugins: [sourceLocations(esbuild), ...(externalPackages ? [installedPackages(externals)] : [])],
      // Bundled CommonJS packages call require() for Node built-ins and optional dependencies.
      banner: { js: "import { createRequire as __folioCreateRequire } from 'node:module'; const require = __folioCreateRequire(import.meta.url);" },
    });
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  } finally {
    // esbuild's service process would otherwise live as long as the command (~100 MB resident
    // beside a build and its compile sandboxes).
    await esbuild.stop();
  }
  const inputs = [...Object.keys(result.metafile.inputs).filter((input) => !input.includes(':')), ...externals].sort();
  const key = fingerprint(inputs, esbuild.version);
  if (!key) throw new Error('an input changed while bundling');
  const final = path.join(dir, key);
  try {
    fs.renameSync(tmp, final);
  } catch {
    // Another process built the same sources at the same time: use its bundle.
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const manifestTmp = path.join(dir, `manifest-${process.pid}.json`);
  fs.writeFileSync(manifestTmp, JSON.stringify({ key, esbuild: esbuild.version, main: 'main.mjs', inputs }));
  fs.renameSync(manifestTmp, path.join(dir, 'manifest.json'));
  pruneOldBundles(dir, key);
  return path.join(final, 'main.mjs');
}

/**
 * Removes bundles of older sources, keeping the newest few: a command still running from one
 * may yet load one of its chunks.
 * @param {string} dir
 * @param {string} keep
 */
function pruneOldBundles(dir, keep) {
  const old = fs.readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== keep)
    .map((d) => ({ name: d.name, mtime: fs.statSync(path.join(dir, d.name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { name } of old.slice(2)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
}

const usage = 'usage: node scripts/bin/run-bundled.mjs [--packages=external] [--cache-dir=<dir>] [--prepare] <command.ts> [args…]';
const options = [];
let rest = process.argv.slice(2);
while (rest[0]?.startsWith('--')) options.push(rest.shift());
const externalPackages = options.includes('--packages=external');
const prepareOnly = options.includes('--prepare');
const cacheOption = options.find((o) => o.startsWith('--cache-dir='))?.slice('--cache-dir='.length);
const [entryArg, ...args] = rest;
if (!entryArg || options.some((o) => o !== '--packages=external' && o !== '--prepare' && !o.startsWith('--cache-dir='))) {
  console.error(usage);
  process.exit(2);
}
const entry = path.resolve(entryArg);
const cacheRoot = path.resolve(cacheOption || process.env.FOLIO_CLI_CACHE_DIR || path.join(root, 'node_modules', '.cache', 'folio-cli'));
const id = createHash('sha256').update(`${entry}${externalPackages ? '\nexternal packages' : ''}`).digest('hex').slice(0, 8);
const dir = path.join(cacheRoot, `${path.basename(entry, path.extname(entry))}-${id}`);
// The command reads its arguments from process.argv as if it had been started directly.
process.argv = [process.argv[0], entry, ...args];

let main = currentBundle(dir);
if (!main) {
  try {
    fs.mkdirSync(dir, { recursive: true });
    main = await buildBundle(entry, dir, externalPackages);
  } catch (err) {
    if (prepareOnly) {
      console.error(`run-bundled: could not bundle ${entryArg}: ${err instanceof Error ? err.message : err}`);
      process.exit(1);
    }
    if (process.env.FOLIO_CLI_DEBUG) console.error(`run-bundled: ${err instanceof Error ? err.message : err}; running through tsx`);
    const { register } = await import('tsx/esm/api');
    register();
  }
}
if (prepareOnly) process.exit(0);
// How the command starts another TypeScript entry of the platform in a child process (the
// builder's `node-entry-args.ts` reads it): through this launcher again, with the same cache
// (children get a scrubbed environment), or through tsx's loader when this run fell back to
// tsx. process.execArgv cannot say it: it holds Node's own options only.
const launcher = fileURLToPath(import.meta.url);
const childOptions = [...(externalPackages ? ['--packages=external'] : []), `--cache-dir=${cacheRoot}`];
const tsxLoader = import.meta.resolve('tsx');
globalThis[Symbol.for('folio.entry-args')] = (file) => (main ? [launcher, ...childOptions, file] : ['--import', tsxLoader, file]);
await import(pathToFileURL(main ?? entry).href);
