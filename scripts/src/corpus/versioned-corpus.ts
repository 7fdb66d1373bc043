/**
 * Versions for a generated corpus, shaped like a versioned docs site: the newest version is the
 * default and holds every page at the content root; each older version's folder (`v2/`, `v1/`,
 * …) holds a third of the pages, one in ten of them rewritten for that version and the rest
 * unchanged copies, and every other page falls back to the newest. `docs.json` declares the
 * versions, the newest listing the navigation (one group per top folder), the older ones
 * inheriting it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CorpusFile } from './corpus-stats.ts';

/** Name of the `k`-th version (1-based): `v1`, `v2`, … */
export const versionName = (k: number) => `v${k}`;

/** The navigation of the default version: one group per top folder of the content root, pages in path order. */
function groupsOf(pages: readonly CorpusFile[], contentRoot: string): { group: string; pages: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const page of pages) {
    const ref = page.path.slice(contentRoot.length).replace(/\.mdx?$/, '');
    const top = ref.includes('/') ? ref.slice(0, ref.indexOf('/')) : 'Overview';
    groups.set(top, [...groups.get(top) ?? [], ref]);
  }
  return [...groups].map(([group, refs]) => ({ group, pages: refs }));
}

/** The `docs.json` of a corpus with versions `1..count` (the last the default). */
export function versionedConfig(pages: readonly CorpusFile[], contentRoot: string, count: number): string {
  const versions = Array.from({ length: count }, (_, i) => count - i).map((k) => (k === count
    ? { version: versionName(k), default: true, groups: groupsOf(pages, contentRoot) }
    : { version: versionName(k) }));
  return JSON.stringify({ name: 'Corpus', theme: 'larch', navigation: { versions } }, null, 2);
}

/**
 * Writes the folder of version `k` (older than the default): copies of the pages `i` with
 * `i % 3 === k % 3`, one in ten of them rewritten. Returns the number of pages written and rewritten.
 */
export function writeVersionFolder(dir: string, pages: readonly CorpusFile[], contentRoot: string, k: number): { written: number; rewritten: number } {
  let written = 0;
  let rewritten = 0;
  pages.forEach((page, i) => {
    if (i % 3 !== k % 3) return;
    const rel = page.path.slice(contentRoot.length);
    const target = path.join(dir, contentRoot, versionName(k), rel);
    const rewrite = written % 10 === 0;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, rewrite ? `${page.source.trimEnd()}\n\nThis page describes ${versionName(k)}.\n` : page.source);
    written++;
    if (rewrite) rewritten++;
  });
  return { written, rewritten };
}

/** Gives the corpus at `dir` versions `1..count` (folders and docs.json); returns what it wrote. */
export function addVersions(dir: string, pages: readonly CorpusFile[], contentRoot: string, count: number): string {
  const parts: string[] = [];
  for (let k = 1; k < count; k++) {
    const { written, rewritten } = writeVersionFolder(dir, pages, contentRoot, k);
    parts.push(`${versionName(k)}/: ${written} pages (${rewritten} rewritten, ${written - rewritten} unchanged copies)`);
  }
  fs.writeFileSync(path.join(dir, 'docs.json'), versionedConfig(pages, contentRoot, count));
  return `${count} versions, ${versionName(count)} the default with all ${pages.length} pages; ${parts.join('; ')}; other pages fall back to ${versionName(count)}`;
}
