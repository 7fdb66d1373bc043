/**
 * The branches of a bare repository read from its files (the loose refs under `refs/heads/`,
 * which win, and `packed-refs`), without starting a `git` process: a push reads them twice and every
 * claim of a managed project's job once, and starting a process costs far more than reading a few
 * small files (tens to hundreds of milliseconds on a busy machine). Git writes a ref to a `.lock`
 * file and renames it into place, so a read sees the old value or the new one. A repository in
 * another ref format (reftable) answers undefined: the caller asks `git` then.
 */
import fs from 'node:fs';
import path from 'node:path';

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

function packedHeads(gitdir: string, into: Map<string, string>): void {
  let text: string;
  try {
    text = fs.readFileSync(path.join(gitdir, 'packed-refs'), 'utf8');
  } catch {
    return;
  }
  for (const line of text.split('\n')) {
    // `# pack-refs with: …` is a header; `^<id>` peels the tag above it.
    if (!line || line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    const id = line.slice(0, space);
    const ref = line.slice(space + 1);
    if (SHA.test(id) && ref.startsWith('refs/heads/')) into.set(ref.slice('refs/heads/'.length), id);
  }
}

function looseHeads(dir: string, prefix: string, into: Map<string, string>): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.isDirectory()) { looseHeads(path.join(dir, e.name), `${prefix}${e.name}/`, into); continue; }
    if (!e.isFile() || e.name.endsWith('.lock')) continue;
    let id: string;
    try {
      id = fs.readFileSync(path.join(dir, e.name), 'utf8').trim();
    } catch {
      continue; // renamed away between the listing and the read (packed meanwhile)
    }
    // A symbolic ref (`ref: …`) is no branch of its own.
    if (SHA.test(id)) into.set(`${prefix}${e.name}`, id);
  }
}

/** Every branch (name below `refs/heads/`) with the commit it points at; undefined for a ref format other than files. */
export function readBranchHeads(gitdir: string): Map<string, string> | undefined {
  if (fs.existsSync(path.join(gitdir, 'reftable'))) return undefined;
  // Loose refs first, packed-refs after: `git pack-refs` writes packed-refs before it deletes the
  // loose files, so a ref being packed meanwhile is seen in one or the other, never in neither.
  const loose = new Map<string, string>();
  looseHeads(path.join(gitdir, 'refs', 'heads'), '', loose);
  const heads = new Map<string, string>();
  packedHeads(gitdir, heads);
  for (const [name, id] of loose) heads.set(name, id);
  return heads;
}

/** Every loose ref below `dir` as `<name> <contents>` lines (symbolic refs included). */
function looseRefLines(dir: string, prefix: string, into: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.isDirectory()) { looseRefLines(path.join(dir, e.name), `${prefix}${e.name}/`, into); continue; }
    if (!e.isFile() || e.name.endsWith('.lock')) continue;
    try {
      into.push(`${prefix}${e.name} ${fs.readFileSync(path.join(dir, e.name), 'utf8').trim()}`);
    } catch { /* renamed away meanwhile (packed): packed-refs holds it */ }
  }
}

const readOr = (file: string, fallback: string) => { try { return fs.readFileSync(file, 'utf8'); } catch { return fallback; } };

/**
 * Everything a ref advertisement of `gitdir` is made of that can change while the control plane
 * runs, as one string: `HEAD`, the configuration, `shallow`, `packed-refs` and every loose ref
 * (tags and any other namespace too, not only branches). Two equal states advertise the same
 * refs (ref-advertisement.ts); undefined for a ref format other than files.
 */
export function readRefsState(gitdir: string): string | undefined {
  if (fs.existsSync(path.join(gitdir, 'reftable'))) return undefined;
  const lines: string[] = [];
  looseRefLines(path.join(gitdir, 'refs'), 'refs/', lines);
  lines.sort();
  return [readOr(path.join(gitdir, 'HEAD'), ''), readOr(path.join(gitdir, 'config'), ''), readOr(path.join(gitdir, 'shallow'), ''),
    readOr(path.join(gitdir, 'packed-refs'), ''), ...lines].join('\0');
}
