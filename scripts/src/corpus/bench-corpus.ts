/**
 * The corpus a benchmark runs on: a generated one, or any docs repository (`--corpus <dir>`: a
 * folder or a Git repository), copied into a Git repository of the benchmark's own so its edits
 * never touch the original.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE, parseConfig } from '@folio/builder/internal/config/parse-config.ts';
import { corpusStats, type CorpusFile, type CorpusStats } from './corpus-stats.ts';
import { commitAll, editedSource, generateCorpus } from '../generate-corpus.ts';
import { addVersions } from './versioned-corpus.ts';

/** A corpus ready to build. */
export interface BenchCorpus {
  /** The Git repository the benchmark builds and commits edits to. */
  dir: string;
  /** Folder of the pages (docs.json's `contentRoot`). */
  contentRoot: string;
  /** Its pages (repository path and text). */
  pages: CorpusFile[];
  stats: CorpusStats;
  /** What was changed to make it build (a docs.json replaced), for the benchmark to print. */
  notes: string[];
}

/**
 * `pages` generated pages in `dir`; with `versions` > 1, also that many versions (see
 * versioned-corpus.ts): `pages` is then the default version's page count, and the statistics
 * are those of every page file.
 */
export function generatedCorpus(dir: string, pages: number, versions = 1): BenchCorpus {
  const stats = generateCorpus(dir, pages);
  if (versions <= 1) return { dir, contentRoot: 'docs/', pages: readPages(dir, 'docs/'), stats, notes: [] };
  const note = addVersions(dir, readPages(dir, 'docs/'), 'docs/', versions);
  commitAll(dir, 'versions');
  const all = readPages(dir, 'docs/');
  return { dir, contentRoot: 'docs/', pages: all, stats: corpusStats(all), notes: [note] };
}

/**
 * Copies the docs at `source` into `dir` as a Git repository: a Git repository is cloned (its
 * checked-out branch), a plain folder copied and committed. A docs.json the builder refuses (as
 * another platform's often is) is replaced by a minimal one keeping its name, so the pages are
 * still built; `notes` says so.
 */
export function externalCorpus(source: string, dir: string): BenchCorpus {
  const from = path.resolve(source);
  if (!fs.existsSync(from)) throw new Error(`--corpus ${source}: no such folder`);
  if (fs.existsSync(path.join(from, '.git')) || fs.existsSync(path.join(from, 'HEAD'))) {
    execFileSync('git', ['clone', '-q', from, dir], { stdio: 'ignore' });
  } else {
    fs.cpSync(from, dir, { recursive: true, filter: (p) => !/[\\/](node_modules|\.git)$/.test(p) });
    commitAll(dir, 'corpus', true);
  }
  const notes: string[] = [];
  const configPath = path.join(dir, CONFIG_FILE);
  const text = fs.existsSync(configPath) ? fs.readFileSync(configPath, 'utf8') : undefined;
  let contentRoot: string;
  try {
    if (text === undefined) throw new Error(`${CONFIG_FILE}: file not found`);
    contentRoot = parseConfig(text, { siteUrl: 'https://bench.example', basePath: '' }, { hasDocsFolder: fs.existsSync(path.join(dir, 'docs')) }).contentRoot;
  } catch (err) {
    const original = safeJson(text);
    const name = typeof original?.name === 'string' && original.name ? original.name : path.basename(from);
    contentRoot = typeof original?.contentRoot === 'string' ? original.contentRoot : fs.existsSync(path.join(dir, 'docs')) ? 'docs/' : './';
    fs.writeFileSync(configPath, `${JSON.stringify({ name, contentRoot }, null, 2)}\n`);
    commitAll(dir, 'bench: minimal docs.json');
    const [first, ...more] = (err as Error).message.split('\n');
    notes.push(`${first}${more.length ? ` (and ${more.length} more)` : ''}; built with a minimal ${CONFIG_FILE} instead: ${JSON.stringify({ name, contentRoot })}`);
    contentRoot = contentRoot.replace(/^(\.\/)+/, '');
  }
  const pages = readPages(dir, contentRoot);
  if (pages.length === 0) throw new Error(`--corpus ${source}: no .mdx or .md pages under ${contentRoot || 'the repository root'}`);
  return { dir, contentRoot, pages, stats: corpusStats(pages), notes };
}

function safeJson(text: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = text === undefined ? undefined : JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The `.mdx`/`.md` pages under `contentRoot` of the checked-out repository at `dir`, by path. */
export function readPages(dir: string, contentRoot: string): CorpusFile[] {
  const files: CorpusFile[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory() && entry.name !== '.git' && entry.name !== 'node_modules') walk(child);
      else if (entry.isFile() && /\.mdx?$/.test(entry.name)) files.push({ path: child, source: fs.readFileSync(path.join(dir, child), 'utf8') });
    }
  };
  const root = contentRoot.replace(/\/$/, '');
  if (fs.existsSync(path.join(dir, root))) walk(root);
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Pages nearest the median size first (ties by path), the order in which a benchmark looks for the page to edit. */
export function byTypicalSize(pages: readonly CorpusFile[]): CorpusFile[] {
  const sizes = pages.map((p) => p.source.length).sort((a, b) => a - b);
  const median = sizes[Math.floor(sizes.length / 2)];
  const distance = (p: CorpusFile) => Math.abs(p.source.length - median);
  return [...pages].sort((a, b) => distance(a) - distance(b) || (a.path < b.path ? -1 : 1));
}

/**
 * The page a benchmark edits: the page nearest the median size that `built` accepts (published,
 * not failed), so the edit costs what a typical page costs.
 */
export function pageToEdit(pages: readonly CorpusFile[], built: (path: string) => boolean = () => true): CorpusFile {
  const page = byTypicalSize(pages).find((p) => built(p.path));
  if (!page) throw new Error('no page of the corpus was built; nothing to edit');
  return page;
}

/** Commits the `variant`-th edit of `page` (a paragraph added at its end) in `dir`. */
export function commitEdit(dir: string, page: CorpusFile, variant: number): void {
  fs.writeFileSync(path.join(dir, page.path), editedSource(page.source, variant));
  commitAll(dir, `edit ${variant}`);
}
