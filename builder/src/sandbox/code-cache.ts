/**
 * V8 code for the sandbox's own modules, so a sandbox starts without compiling Vite, shiki, MDX
 * and the site template from source each time (Node's module compile cache, `NODE_COMPILE_CACHE`:
 * about a third of a sandbox's start-up CPU).
 *
 * Trust: the cache holds compiled code that every later sandbox runs, so no sandbox that saw a
 * customer's page ever writes it. One "recording" sandbox, started by the builder itself, compiles
 * a page of the platform's own (compile/synthetic-page.ts) and ends normally; Node writes the
 * cache into that sandbox's scratch folder, and the builder copies it to the template folder
 * under the platform's `node_modules/.cache/` (read-only to sandboxes, like the rest of the
 * platform). Every other sandbox gets the template's files in its own scratch folder (copies, or
 * links it may only read: see `placeFile`), which is deleted with it: nothing a sandbox writes
 * reaches another.
 * Node checks each entry against its module's source, so a template older than the code only
 * misses; it is keyed by the platform's version (see code-cache-warmup.ts) and made again
 * when that changes.
 */
import { chmodSync, chownSync, copyFileSync, cpSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { PLATFORM_ROOT } from './runtime.ts';

/** Folder of the templates (one per platform version). */
export const CODE_CACHE_ROOT = path.join(PLATFORM_ROOT, 'node_modules', '.cache', 'folio-sandbox-code');

/** Folder name, inside a sandbox's scratch folder, of its own copy of the cache. */
const OWN = 'code-cache';

/**
 * Node names the cache's folder after its version, the V8 flags and the user id
 * (`v26.10.0-x64-310b2ce3-1000`): the folder a sandbox running as `uid` looks for.
 */
function forUid(name: string, uid: number): string {
  return name.replace(/-\d+$/, `-${uid}`);
}

/**
 * Places one file of the template in a sandbox's copy. For a sandbox of another user, a hard
 * link: the inode stays the builder's, mode 0644, so that sandbox may read it but never write
 * it, and a link costs one system call where a copy costs six (612 files: a copy blocked the
 * builder 0.2-0.5 s before each sandbox could start). A sandbox running as the builder's own user
 * could write a linked inode, so it gets a copy, as does a file another user could write.
 */
function placeFile(from: string, to: string, uid: number, otherUser: boolean): void {
  const stat = statSync(from);
  // Only regular files: copying a pipe would wait for a writer forever.
  if (!stat.isFile()) throw new Error(`not a file: ${from}`);
  if (otherUser && stat.uid !== uid && (stat.mode & 0o022) === 0) {
    try {
      linkSync(from, to);
      return;
    } catch {
      // Another file system, or links refused: copy instead.
    }
  }
  copyFileSync(from, to);
  if (otherUser) chownSync(to, uid, uid);
}

/**
 * Seeds a sandbox that runs as `uid` with the template `template` (when it exists), in its
 * scratch folder; returns the environment that makes Node use it, `{}` without a template.
 */
export function seedCodeCache(template: string, scratch: string, uid: number): Record<string, string> {
  const own = path.join(scratch, OWN);
  const otherUser = uid !== process.getuid?.();
  try {
    const names = readdirSync(template);
    mkdirSync(own);
    if (otherUser) chownSync(own, uid, uid);
    for (const name of names) {
      const from = path.join(template, name);
      const target = path.join(own, forUid(name, uid));
      mkdirSync(target);
      if (otherUser) chownSync(target, uid, uid);
      for (const file of readdirSync(from)) placeFile(path.join(from, file), path.join(target, file), uid, otherUser);
    }
    return { NODE_COMPILE_CACHE: own };
  } catch {
    // No template, or one this user may not read: the sandbox starts without a cache, as before.
    rmSync(own, { recursive: true, force: true });
    return {};
  }
}

/** The environment of the recording sandbox: Node writes its cache into the scratch folder. */
export function recordCodeCache(scratch: string, uid: number): Record<string, string> {
  const own = path.join(scratch, OWN);
  mkdirSync(own);
  if (uid !== process.getuid?.()) chownSync(own, uid, uid);
  return { NODE_COMPILE_CACHE: own };
}

/**
 * After the recording sandbox ended normally: its cache becomes the template `template` (made
 * whole in a temporary folder, then renamed, so a sandbox never sees half of it). Returns
 * whether a template was written.
 */
export function saveCodeCache(scratch: string, template: string): boolean {
  const own = path.join(scratch, OWN);
  if (!existsSync(own) || readdirSync(own).length === 0 || existsSync(template)) return false;
  const temporary = `${template}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(template), { recursive: true });
    cpSync(own, temporary, { recursive: true });
    // Readable by every user: a builder running as another user (the image's) starts from it too.
    chmodSync(temporary, 0o755);
    for (const name of readdirSync(temporary)) {
      chmodSync(path.join(temporary, name), 0o755);
      for (const file of readdirSync(path.join(temporary, name))) chmodSync(path.join(temporary, name, file), 0o644);
    }
    renameSync(temporary, template);
    // Older platform versions' templates are dead weight now.
    for (const name of readdirSync(path.dirname(template))) {
      const other = path.join(path.dirname(template), name);
      if (other !== template && !name.endsWith('.tmp')) rmSync(other, { recursive: true, force: true });
    }
    return true;
  } catch {
    rmSync(temporary, { recursive: true, force: true });
    return false;
  }
}
