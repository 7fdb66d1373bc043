/**
 * The branches of a bare repository read from its files (the loose refs under `refs/heads/`,
 * which win, and `packed-refs`), without starting a `git` process: a push reads them twice and every
 * claim of a managed project's job once, and starting a process costs far more than reading a few
 * small files (tens to hundreds of milliseconds on a busy machine). Git writes a ref to a `.lock`
 * file and renames it into place, so a read sees the old value or the new one. A repository in
 * another ref format (reftable) answers undefined: the caller asks `git` then. The state of all
 * the refs (`readRefsState`) tells when a kept ref advertisement is still the repository's.
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

/** Calls `visit` with every loose ref file below `dir` (its name, `prefix` first) and its contents, trimmed. */
function walkLooseRefs(dir: string, prefix: string, visit: (name: string, contents: string) => void): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.isDirectory()) { walkLooseRefs(path.join(dir, e.name), `${prefix}${e.name}/`, visit); continue; }
    if (!e.isFile() || e.name.endsWith('.lock')) continue;
    let contents: string;
    try {
      contents = fs.readFileSync(path.join(dir, e.name), 'utf8').trim();
    } catch {
      continue; // renamed away between the listing and the read (packed meanwhile)
    }
    visit(`${prefix}${e.name}`, contents);
  }
}

/** Every branch (name below `refs/heads/`) with the commit it points at; undefined for a ref format other than files. */
export function readBranchHeads(gitdir: string): Map<string, string> | undefined {
  if (fs.existsSync(path.join(gitdir, 'reftable'))) return undefined;
  // Loose refs first, packed-refs after: `git pack-refs` writes packed-refs before it deletes the
  // loose files, so a ref being packed meanwhile is seen in one or the other, never in neither.
  const loose = new Map<string, string>();
  // A symbolic ref (`ref: …`) is no branch of its own.
  walkLooseRefs(path.join(gitdir, 'refs', 'heads'), '', (name, id) => { if (SHA.test(id)) loose.set(name, id); });
  const heads = new Map<string, string>();
  packedHeads(gitdir, heads);
  for (const [name, id] of loose) heads.set(name, id);
  return heads;
}

const readOr = (file: string, fallback: string) => { try { return fs.readFileSync(file, 'utf8'); } catch { return fallback; } };

/**
 * Everything a ref advertisement of `gitdir` is made of that can change while the control plane
 * runs, as one string: `HEAD`, the configuration, `shallow`, the alternates (whose refs a push's
 * advertisement names too), `packed-refs` and every loose ref (tags and any other namespace too,
 * not only branches). Two equal states advertise the same refs (ref-advertisement.ts); undefined
 * for a ref format other than files.
 */
export function readRefsState(gitdir: string): string | undefined {
  if (fs.existsSync(path.join(gitdir, 'reftable'))) return undefined;
  const lines: string[] = [];
  walkLooseRefs(path.join(gitdir, 'refs'), 'refs/', (name, contents) => lines.push(`${name} ${contents}`));
  lines.sort();
  const files = ['HEAD', 'config', 'shallow', 'objects/info/alternates', 'packed-refs'].map((f) => readOr(path.join(gitdir, f), ''));
  return [...files, ...lines].join('\0');
}
