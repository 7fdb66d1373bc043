/**
 * `npm run dev -- <repo dir> [--port 4300] [--host 127.0.0.1]` (also `build-site dev …`): a
 * local preview of a docs repository's working tree, uncommitted files included, with the real
 * site template, search, clean URLs, redirects, `.md` exports and `llms.txt`. Edits reach the
 * open browser as they are saved; problems show as an overlay over the last good page.
 *
 * The site and its page cache are kept in the system's temp folder (one folder per repository
 * path), so the next start only compiles what changed meanwhile. Nothing is fetched from the
 * network: the template's assets are built locally.
 *
 * "Ready" means: the server listens, the working tree is read and `docs.json` is checked (a
 * problem in it is printed at once and shown in the browser). The build (pages, navigation,
 * search, `.md` exports, `llms.txt`) then runs in the background, as `astro dev` and
 * `vitepress dev` start before they have compiled anything. A page opened meanwhile is answered
 * before that build is done: from the stored site when nothing changed since the last run, else
 * compiled ahead of the others (see `startDevServer` and early-answers.ts); what cannot be made
 * early (search, exports, redirects) is answered once the build is done.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { DevServer } from './dev-server.ts';

export const DEV_USAGE = `usage: dev <repo dir> [--port <n>] [--host <h>] [--root <folder>]

Serves the docs in <repo dir> (docs.json at its root, or in one of its folders such as docs/)
at http://127.0.0.1:4300/ and rebuilds what you edit: pages, snippets, public/ and docs.json.

  --port <n>   port to listen on (default 4300; the next free one when 4300 is taken)
  --host <h>   interface to listen on (default 127.0.0.1)
  --root <d>   the folder holding docs.json, when the repository has several
  -h, --help   show this help`;

/** Default port of the preview. */
export const DEV_PORT = 4300;

/** Options of `startDev`. */
export interface DevOptions {
  dir: string;
  /** Default `DEV_PORT`, or a free port when it is taken; an explicit port that is taken fails. */
  port?: number;
  host?: string;
  /** Where the built site and its cache live; default a folder per repository under the temp folder. */
  cacheDir?: string;
  /** The folder of `dir` holding `docs.json`; default: found as a build finds it (config/docs-root.ts). */
  root?: string;
  log?(line: string): void;
}

/** Paths (relative to `dir`) of the `docs.json` files of its folders, dot-folders and `node_modules/` left out. */
function configFiles(dir: string, rel = '', found: string[] = []): string[] {
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') configFiles(dir, `${rel}${e.name}/`, found);
    else if (e.name === 'docs.json' || (rel === '' && e.name === 'mint.json')) found.push(`${rel}${e.name}`);
  }
  return found;
}

/**
 * The folder of the repository at `dir` the preview serves: its docs root, chosen by the rule a
 * build follows, so the preview shows what `build-site` publishes.
 */
async function docsFolder(dir: string, root: string | undefined): Promise<string> {
  if (!fs.existsSync(dir)) throw new Error(`${dir}: no such folder; give the folder of a docs repository`);
  if (root === undefined && fs.existsSync(path.join(dir, 'docs.json'))) return dir;
  const { findDocsRoot, normalizeDocsRoot } = await import('../config/docs-root.ts');
  const paths = root === undefined ? configFiles(dir) : [`${normalizeDocsRoot(root)}docs.json`].filter((p) => fs.existsSync(path.join(dir, p)));
  return path.resolve(dir, findDocsRoot(paths, root));
}

/** Where the preview of the repository at `dir` keeps its built site and page cache by default. */
export function devCacheDir(dir: string): string {
  return path.join(os.tmpdir(), 'folio-dev', createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 16));
}

/** A started preview: its server and the folder it shows. */
export interface DevPreview extends DevServer { dir: string }

/**
 * Starts the preview of `opts.dir`: watches, reads the working tree, serves and checks
 * `docs.json`, then builds in the background (`session.ready` settles when that build is done).
 */
export async function startDev(opts: DevOptions): Promise<DevPreview> {
  const dir = await docsFolder(path.resolve(opts.dir), opts.root);
  const cacheDir = opts.cacheDir ?? devCacheDir(dir);
  // First of all, the compiler (on an empty cache its sandbox starts now: the first page waits
  // for it), then the rest; loaded here, so `dev --help` starts quickly. The compiler's build
  // modules, template and search load later, in the session (see `loadBuildModules`).
  const [{ createLocalDirStore }, { startDevCompiler }] = await Promise.all([import('../store/local-dir-store.ts'), import('./dev-compiler.ts')]);
  const store = createLocalDirStore(cacheDir);
  const compiler = startDevCompiler(store);
  compiler.catch(() => undefined); // awaited by the first build, which reports a failure
  const closeCompiler = async () => { await (await compiler.catch(() => undefined))?.close(); };
  const [{ createDevSession }, { startDevServer }, { isSkippedPath, openWorkingTree }] = await Promise.all([
    import('./dev-session.ts'), import('./dev-server.ts'), import('./working-tree.ts'),
  ]).catch(async (err: unknown) => { await closeCompiler(); throw err; });
  // Watching starts before the tree is read, so a file saved while it is read is not missed;
  // what changes before the session exists is handed to it once it does.
  const early = new Set<string>();
  const made: { session?: DevServer['session'] } = {};
  const watcher = fs.watch(dir, { recursive: true }, (_event, file) => {
    if (!file) return;
    const repoPath = file.toString().split(path.sep).join('/');
    if (isSkippedPath(repoPath)) return;
    if (made.session) made.session.changed([repoPath]);
    else early.add(repoPath);
  });
  // A watch that fails (the system's limit of watched files reached, ENOSPC) ends with an error
  // event, which unhandled would end the process: the preview keeps serving its last build.
  watcher.on('error', (err: NodeJS.ErrnoException) => {
    watcher.close();
    opts.log?.(`error: stopped watching ${dir} (${err.code ?? err.message}); the last build is still served, restart the preview to watch again`);
  });
  const tree = await openWorkingTree(dir).catch(async (err: unknown) => { watcher.close(); await closeCompiler(); throw err; });
  const listen = (port: number) => startDevServer({ store, host: opts.host, port, session: (siteUrl) => createDevSession({ tree, store, siteUrl, compiler, log: opts.log }) });
  let server: DevServer;
  try {
    server = await listen(opts.port ?? DEV_PORT).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE' || opts.port !== undefined) throw err;
      return listen(0);
    });
  } catch (err) {
    watcher.close();
    await closeCompiler();
    throw err;
  }
  made.session = server.session;
  if (early.size > 0) server.session.changed(early);
  await server.session.configRead;
  return {
    ...server,
    dir,
    async close() {
      watcher.close();
      await server.close();
      await closeCompiler();
    },
  };
}

/** The command: parses `argv`, starts the preview and runs until interrupted. Returns the exit code on a start failure. */
export async function devMain(argv: string[], log: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number | undefined> {
  let args;
  try {
    args = parseArgs({ args: argv, allowPositionals: true, options: { port: { type: 'string' }, host: { type: 'string' }, root: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    log(`${(err as Error).message}\n${DEV_USAGE}`);
    return 1;
  }
  if (args.values.help) { log(DEV_USAGE); return 0; }
  const [dir] = args.positionals;
  if (!dir) { log(DEV_USAGE); return 1; }
  const port = args.values.port === undefined ? undefined : Number(args.values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) { log(`--port: expected a number from 0 to 65535, got "${args.values.port}"`); return 1; }
  const started = performance.now();
  let dev;
  try {
    dev = await startDev({ dir, port, host: args.values.host, root: args.values.root, log });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    log(e.code === 'EADDRINUSE' ? `error: port ${port} is taken; choose another with --port` : `error: ${e.message}`);
    return 1;
  }
  log(`Ready in ${Math.round(performance.now() - started)} ms: preview of ${dev.dir} at ${dev.url}/ — building in the background, watching for changes (Ctrl+C to stop)`);
  const stop = () => { void dev.close().then(() => process.exit(0)); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return undefined;
}
