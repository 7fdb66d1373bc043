#!/usr/bin/env node
/**
 * `node scripts/bin/run-bundled.mjs <command.ts> [args…]`: runs a TypeScript command from a
 * bundle instead of through tsx, so it starts in a fraction of the time.
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
  const hash = createHash('sha256').update(`esbuild ${esbuildVersion}\n`);
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
 * @returns {Promise<string>} path of the bundle's main file
 */
async function buildBundle(entry, dir) {
  const esbuild = await import('esbuild');
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
      // Bundled CommonJS packages call require() for Node built-ins and optional dependencies.
      banner: { js: "import { createRequire as __folioCreateRequire } from 'node:module'; const require = __folioCreateRequire(import.meta.url);" },
    });
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes(':')).sort();
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

const [entryArg, ...args] = process.argv.slice(2);
if (!entryArg) {
  console.error('usage: node scripts/bin/run-bundled.mjs <command.ts> [args…]');
  process.exit(2);
}
const entry = path.resolve(entryArg);
const cacheRoot = process.env.FOLIO_CLI_CACHE_DIR || path.join(root, 'node_modules', '.cache', 'folio-cli');
const dir = path.join(cacheRoot, `${path.basename(entry, path.extname(entry))}-${createHash('sha256').update(entry).digest('hex').slice(0, 8)}`);
// The command reads its arguments from process.argv as if it had been started directly.
process.argv = [process.argv[0], entry, ...args];

let main = currentBundle(dir);
if (!main) {
  try {
    fs.mkdirSync(dir, { recursive: true });
    main = await buildBundle(entry, dir);
  } catch (err) {
    if (process.env.FOLIO_CLI_DEBUG) console.error(`run-bundled: ${err instanceof Error ? err.message : err}; running through tsx`);
    const { register } = await import('tsx/esm/api');
    register();
  }
}
await import(pathToFileURL(main ?? entry).href);
