#!/usr/bin/env node
/**
 * `npm run build-site -- <git-url|dir> --out <dir> [--branch b] [--token t] [--site-url u] [--root d]`
 *
 * Builds a docs repository into a local folder: the site's files at the top of `--out`, the
 * manifest and page cache under `--out/_folio/`. Running it again over the same `--out` is
 * incremental. Exit codes: 0 built (some pages may have failed: see the summary), 1 user error,
 * 2 app error.
 *
 * The repository is fetched in this process (which holds the token); the build itself, where
 * customer MDX runs, runs in a child process whose environment is scrubbed (`scrubbedEnv`): no
 * token, no cloud credentials, nothing but PATH, HOME, locale and time zone.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { BuildOptions } from './build.ts';
import { BuilderError } from './errors.ts';
import { scrubbedEnv } from './limits/scrubbed-env.ts';
import { buildProcessArgs, buildProcessEnv } from './build-process-launch.ts';
import type { BuildResult } from './types.ts';

const USAGE = 'usage: build-site <git-url|dir> --out <dir> [--branch <b>] [--token <t>] [--site-url <u>] [--root <folder>]';
const HELP = `${USAGE}
       build-site dev <repo dir> [--port <n>]   (a local preview: build-site dev --help)

Builds a docs repository (a Git URL, a local repository or a plain folder with docs.json) into
--out: the site at its top, the build state under --out/_folio/. Building again into the same
--out only compiles what changed. To look at the result, run the dev preview instead, or serve
--out with a static server that maps /a/b to a/b/index.html.

  --out <dir>       where the site goes (required)
  --branch <b>      branch or commit to build (default: the remote's default branch, or HEAD)
  --token <t>       token for a private HTTPS remote
  --site-url <u>    the site's public origin, for canonical links, feeds and the sitemap
                    (default http://localhost)
  --root <folder>   the folder holding docs.json, e.g. docs (default: the repository root
                    when docs.json is there, else the one folder holding it)
  -h, --help        show this help

Exit codes: 0 built (failed pages are listed), 1 a problem in the repository, 2 a platform error.`;

interface ChildRequest { dir: string; ref?: string; out: string; siteUrl: string; docsRoot?: string }
type ChildReply = { ok: true; result: BuildResult } | { ok: false; kind: 'user' | 'app'; message: string };

/** Runs the CLI with `argv` (without node and script); returns the exit code. */
export async function main(argv: string[], log: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: argv, allowPositionals: true, options: {
      out: { type: 'string' }, branch: { type: 'string' }, token: { type: 'string' }, 'site-url': { type: 'string' }, root: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    } });
  } catch (err) {
    log(`${(err as Error).message}\n${USAGE}`);
    return 1;
  }
  if (args.values.help) { log(HELP); return 0; }
  const [source] = args.positionals;
  if (!source || !args.values.out) { log(USAGE); return 1; }
  const out = path.resolve(args.values.out);
  const siteUrl = args.values['site-url'] ?? 'http://localhost';
  const docsRoot = args.values.root;
  try {
    let request: ChildRequest;
    if (/^https?:\/\//.test(source)) {
      // Loaded here, not at the top: `--help` and local builds never need the Git client.
      const { syncRemote } = await import('./git/sync-remote.ts');
      const dir = path.join(out, '_folio', 'cache', 'git');
      const { commit } = await syncRemote({ url: source, dir, branch: args.values.branch, token: args.values.token });
      request = { dir, ref: commit, out, siteUrl, docsRoot };
    } else {
      request = { dir: path.resolve(source), ref: args.values.branch, out, siteUrl, docsRoot };
    }
    const reply = await runChild(request);
    if (!reply.ok) { log(`error: ${reply.message}`); return reply.kind === 'user' ? 1 : 2; }
    log(summary(reply.result));
    return 0;
  } catch (err) {
    if (err instanceof BuilderError) { log(`error: ${err.toString()}`); return err.kind === 'user' ? 1 : 2; }
    log(`error: ${(err as Error).message}`);
    return 2;
  }
}

/** How many compiled pages took the static path (no JavaScript of their own), e.g. `static path: 812 of 1,000 compiled pages (81%)`. */
export function staticShare(staticPages: number, compiled: number): string {
  return `static path: ${staticPages.toLocaleString('en-US')} of ${compiled.toLocaleString('en-US')} compiled pages (${Math.round((100 * staticPages) / compiled)}%)`;
}

/** Lines of each list (warnings, failed pages) the summary prints; the rest are counted. */
export const SUMMARY_MAX_LINES = 100;

/** At most `SUMMARY_MAX_LINES` of `lines`, then one counting the rest (`  …and 1,900 more warnings`). */
function capped(lines: string[], noun: string): string[] {
  if (lines.length <= SUMMARY_MAX_LINES) return lines;
  const rest = lines.length - SUMMARY_MAX_LINES;
  return [...lines.slice(0, SUMMARY_MAX_LINES), `  …and ${rest.toLocaleString('en-US')} more ${noun}${rest === 1 ? '' : 's'}`];
}

/** The human summary of a build result: each list at most `SUMMARY_MAX_LINES` lines, as the deployment shows them. */
export function summary(r: BuildResult): string {
  const lines = [
    `${r.commit ? `commit ${r.commit.slice(0, 12)}: ` : ''}${r.pagesTotal} pages, ${r.pagesSuccess} ok, ${r.pagesFailed} failed; ${r.compiled} compiled; ${r.uploaded} uploaded, ${r.deleted} deleted`,
    ...capped((r.warnings ?? []).map((w) => `  warning: ${w}`), 'warning'),
    ...capped(r.errors.map((e) => `  ${[e.sourcePath, e.line, e.column].filter((v) => v !== undefined).join(':')}: ${e.message}`), 'failed page'),
    `timings (ms): ${Object.entries(r.timings).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    ...(r.compiled > 0 ? [staticShare(r.staticPages ?? 0, r.compiled)] : []),
  ];
  return lines.join('\n');
}

/** Runs the build in a child process with a scrubbed environment and reads its reply. */
function runChild(request: ChildRequest): Promise<ChildReply> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...buildProcessArgs(fileURLToPath(import.meta.url)), '--child'], {
      env: buildProcessEnv(scrubbedEnv()), stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      try { resolve(JSON.parse(last) as ChildReply); } catch { reject(new Error(`build process exited with ${code}`)); }
    });
    child.stdin.end(JSON.stringify(request));
  });
}

/** The child side: build, then print one JSON reply line. */
async function child(): Promise<void> {
  // The first compile sandbox starts before anything else: its start (about 1.5 s of CPU) runs
  // beside this process's loading of the build's modules, reading the repository and planning.
  const { createCompiler } = await import('./sandbox/index.ts');
  const compiler = await createCompiler();
  compiler.prepare();
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const req = JSON.parse(input) as ChildRequest;
  // The build's modules load only in the child, so the parent (and `--help`) starts quickly.
  const [{ build }, { createProgress }, { createLocalDirStore }] = await Promise.all([
    import('./build.ts'), import('./progress/progress-reporter.ts'), import('./store/local-dir-store.ts'),
  ]);
  // Progress goes to stderr (the parent's, inherited): stdout carries the reply.
  const progress = createProgress(process.stderr);
  const opts: BuildOptions = {
    source: { kind: 'dir', dir: req.dir, ref: req.ref }, docsRoot: req.docsRoot, store: createLocalDirStore(req.out), siteUrl: req.siteUrl, compiler,
    onStep: (step) => {
      progress.step(step);
      // Nothing compiles after this step: the sandboxes' memory (hundreds of MB each after a
      // large compile) goes back before shells render and outputs are published.
      if (step === 'compile') void compiler.close();
    },
    onCompiled: (done, total) => progress.compiled(done, total),
  };
  let reply: ChildReply;
  try {
    reply = { ok: true, result: await build(opts) };
  } catch (err) {
    reply = err instanceof BuilderError
      ? { ok: false, kind: err.kind, message: err.toString() }
      : { ok: false, kind: 'app', message: (err as Error).message };
  }
  progress.end();
  await compiler.close();
  // Exit once the reply is written: a pipe takes 64 KB at once, and a site with many warnings
  // replies with more; exiting straight after the write cut the reply short.
  process.stdout.write(`\n${JSON.stringify(reply)}\n`, () => process.exit(0));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--child') await child();
  else if (process.argv[2] === 'dev') {
    const { devMain } = await import('./dev/dev-command.ts');
    const code = await devMain(process.argv.slice(3));
    if (code !== undefined) process.exit(code);
  } else process.exitCode = await main(process.argv.slice(2));
}
