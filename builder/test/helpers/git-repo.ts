/**
 * Real Git repositories for tests, made with the git CLI in a temp folder.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A file's text, `null` to delete it, or `{ link }` for a symbolic link to that target. */
export type FileSpec = string | Uint8Array | null | { link: string };

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Folio Test', GIT_AUTHOR_EMAIL: 'test@folio.invalid',
  GIT_COMMITTER_NAME: 'Folio Test', GIT_COMMITTER_EMAIL: 'test@folio.invalid',
  GIT_AUTHOR_DATE: '2025-01-02T03:04:05Z', GIT_COMMITTER_DATE: '2025-01-02T03:04:05Z',
};

/** Runs git in `dir` and returns its trimmed output. */
export function gitIn(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' }).trim();
}

/** A fresh temp folder. */
/** Folders made by `tempDir`, removed when the test process exits. */
const made: string[] = [];
process.once('exit', () => { for (const dir of made) fs.rmSync(dir, { recursive: true, force: true }); });

export function tempDir(prefix = 'folio-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Creates a repository at `dir` (branch `main`) with `files` committed; returns the commit id. */
export function makeRepo(dir: string, files: Record<string, FileSpec>): string {
  fs.mkdirSync(dir, { recursive: true });
  gitIn(dir, 'init', '-q', '-b', 'main');
  return commitFiles(dir, files, 'initial');
}

/** Writes (or deletes) `files` in the repository at `dir` and commits; returns the commit id. */
export function commitFiles(dir: string, files: Record<string, FileSpec>, message = 'change'): string {
  writeFiles(dir, files);
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '--allow-empty', '-m', message);
  return gitIn(dir, 'rev-parse', 'HEAD');
}

/** Writes (or deletes) `files` under `dir` without Git. */
export function writeFiles(dir: string, files: Record<string, FileSpec>): void {
  for (const [rel, spec] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    if (spec === null) { fs.rmSync(abs, { force: true }); continue; }
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.rmSync(abs, { force: true });
    if (typeof spec === 'object' && 'link' in spec) fs.symlinkSync(spec.link, abs);
    else fs.writeFileSync(abs, spec);
  }
}

/** Copies a fixture folder into a new repository and commits it; returns `{ dir, commit }`. */
export function repoFromFolder(source: string, dir = tempDir()): { dir: string; commit: string } {
  fs.cpSync(source, dir, { recursive: true });
  gitIn(dir, 'init', '-q', '-b', 'main');
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', 'initial');
  return { dir, commit: gitIn(dir, 'rev-parse', 'HEAD') };
}
