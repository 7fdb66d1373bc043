/**
 * Generates a docs corpus shaped like a real public MDX docs corpus, as a Git repository:
 *
 * - page sizes log-normal with a median of 3.7 KB of MDX and a 90th percentile of 11 KB (a
 *   heavy tail), plus a changelog of ~160 KB made of hundreds of `<Update>` blocks;
 * - ~2.5 fenced code blocks per page, more on longer pages (at most 36 on one), in the measured
 *   mix of languages (see corpus/code-samples.ts);
 * - components on as many pages as measured (see corpus/components.ts, which also says which
 *   components the site template lacks and what stands in for them);
 * - frontmatter on every page (title, description, often icon and sidebarTitle) and folders 3-4
 *   levels deep;
 * - about ten internal links per page (prose links and card links), each to a page of the corpus,
 *   so a build reports no broken links, as a maintained site's does.
 *
 * Deterministic: page `i` depends only on the seed and `i`, so the first 1,000 pages of a
 * 10,000-page corpus are the 1,000-page corpus.
 *
 * `npx tsx scripts/src/generate-corpus.ts --pages 270 [--seed 1] [--out <dir>]` prints the
 * corpus statistics (and writes the repository when `--out` is given).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from './cli-args.ts';
import { codeFence } from './corpus/code-samples.ts';
import { component, COMPONENTS_PER_270_PAGES, paragraph, sentence, update, type MeasuredComponent } from './corpus/components.ts';
import { corpusStats, formatStats, type CorpusFile, type CorpusStats } from './corpus/corpus-stats.ts';
import { randomFor, type Random } from './corpus/random.ts';

/** Seed of the benchmark corpora. */
export const DEFAULT_SEED = 1;

/** Measured page sizes (bytes of MDX) the generator aims at. */
const MEDIAN_BYTES = 3700;
const P90_BYTES = 11_000;
const CHANGELOG_BYTES = 160_000;
/** Measured: ~2.5 blocks per page over pages averaging ~5.5 KB, at most 36 on one page. */
const BYTES_PER_FENCE = 2300;
const MAX_FENCES = 36;

const SECTIONS = ['guides', 'api-reference', 'concepts', 'integrations', 'platform', 'sdks', 'self-hosting', 'analytics', 'security', 'migration'];
const GROUPS = ['getting-started', 'authentication', 'projects', 'deployments', 'webhooks', 'domains', 'teams', 'billing'];
const TOPICS = ['advanced', 'examples', 'reference', 'troubleshooting', 'v1', 'v2'];
const SLUGS = ['overview', 'create', 'update', 'delete', 'list', 'configure', 'limits', 'errors', 'faq', 'setup', 'events', 'permissions'];
const TITLE_WORDS = ['Projects', 'Deployments', 'API keys', 'Webhooks', 'Custom domains', 'Branches', 'Previews', 'Search', 'Teams', 'Billing', 'Redirects', 'Themes'];
const ICONS = ['rocket', 'book', 'code', 'gear', 'bolt', 'shield', 'globe', 'key'];
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const yamlString = (s: string) => JSON.stringify(s);

function frontmatter(r: Random, title: string): string {
  const lines = ['---', `title: ${yamlString(title)}`, `description: ${yamlString(sentence(r))}`];
  if (r.chance(0.6)) lines.push(`icon: ${yamlString(r.pick(ICONS))}`);
  if (r.chance(0.3)) lines.push(`sidebarTitle: ${yamlString(title.split(' ').slice(-1)[0])}`);
  return `${lines.join('\n')}\n---\n`;
}

/** Prose that pads a section: a paragraph, a list, a table or a sub-heading with a paragraph. */
function filler(r: Random): string {
  const kind = r.next();
  if (kind < 0.45) return paragraph(r);
  if (kind < 0.7) return Array.from({ length: r.int(3, 6) }, (_, k) => (r.chance(0.5) ? `${k + 1}. ${sentence(r)}` : `- ${sentence(r)}`)).join('\n');
  if (kind < 0.85) {
    const rows = Array.from({ length: r.int(2, 6) }, () => `| \`${r.pick(['id', 'name', 'limit', 'cursor', 'status', 'region'])}\` | ${r.pick(['string', 'integer', 'boolean'])} | ${sentence(r)} |`);
    return ['| Field | Type | Description |', '| --- | --- | --- |', ...rows].join('\n');
  }
  return `### ${r.pick(TITLE_WORDS)} ${r.pick(SLUGS)}\n\n${paragraph(r)}`;
}

/** An ordinary page: size drawn from the measured distribution, then filled with prose, code and components. */
function ordinaryPage(r: Random, title: string): string {
  const target = Math.min(120_000, Math.max(600, r.logNormal(MEDIAN_BYTES, P90_BYTES)));
  const fenceBudget = Math.min(MAX_FENCES, Math.floor((target / BYTES_PER_FENCE) * (0.4 + 1.2 * r.next()) + r.next()));
  let fences = 0;
  // Components holding code (tabs, steps, code groups) take their blocks from the page's budget;
  // past the most measured on one page they get prose instead.
  const fence = () => {
    if (fences >= MAX_FENCES) return paragraph(r);
    fences++;
    return codeFence(r);
  };
  const items: string[] = [];
  for (const [name, pages] of Object.entries(COMPONENTS_PER_270_PAGES) as Array<[MeasuredComponent, number]>) {
    if (r.chance(pages / 270)) items.push(component(name, r, fence));
  }
  while (fences < fenceBudget) items.push(fence());
  // Components and code in a random order, spread over the sections.
  for (let k = items.length - 1; k > 0; k--) {
    const j = r.int(0, k);
    [items[k], items[j]] = [items[j], items[k]];
  }
  const parts = [frontmatter(r, title), paragraph(r)];
  let size = parts.join('\n\n').length;
  const perSection = Math.max(1, Math.ceil(items.length / Math.max(2, Math.round(target / 1500))));
  while (items.length > 0 || size < target) {
    const section = [`## ${r.pick(TITLE_WORDS)} ${r.pick(SLUGS)}`, paragraph(r), ...items.splice(0, perSection)];
    if (size + section.join('\n\n').length < target) section.push(filler(r));
    parts.push(...section);
    size += section.join('\n\n').length + 2;
  }
  return `${parts.join('\n\n')}\n`;
}

/** The changelog: hundreds of dated `<Update>` blocks, newest first, a few with code. */
function changelog(r: Random): string {
  const parts = [frontmatter(r, 'Changelog'), 'New features, fixes and deprecations, newest first.'];
  let size = parts.join('\n\n').length;
  const day = Date.UTC(2025, 5, 30);
  for (let k = 0; size < CHANGELOG_BYTES; k++) {
    const date = new Date(day - k * 3 * 86_400_000).toISOString().slice(0, 10);
    // Code in one update of 15: ~29 blocks, under the 36 measured on one page.
    const block = update(r, `v${4 - Math.floor(k / 100)}.${99 - (k % 100)}.0`, k % 15 === 0, date);
    parts.push(block);
    size += block.length + 2;
  }
  return `${parts.join('\n\n')}\n`;
}

/** The repository path of page `i`, drawn first from the page's stream `r`. */
function pagePath(r: Random, i: number): string {
  if (i === 0) return 'docs/index.mdx';
  if (i === 1) return 'docs/changelog.mdx';
  const folders = [SECTIONS[i % SECTIONS.length], GROUPS[Math.floor(i / SECTIONS.length) % GROUPS.length]];
  if (r.chance(0.5)) folders.push(r.pick(TOPICS));
  return `docs/${folders.join('/')}/${r.pick(SLUGS)}-${i}.mdx`;
}

/** The URL of page `i` (its path drawn again from its own stream). */
function pageUrl(i: number, seed: number): string {
  return pagePath(randomFor(seed, i), i).replace(/^docs\//, '/').replace(/(^|\/)index\.mdx$/, '$1').replace(/\.mdx$/, '');
}

/**
 * Page `i` of the corpus made with `seed`: its repository path and MDX. Its links go to earlier
 * pages, which every corpus holding page `i` has, so a page is the same whatever the corpus size.
 */
export function corpusPage(i: number, seed = DEFAULT_SEED): CorpusFile {
  const r = randomFor(seed, i);
  r.linkTarget = () => (i === 0 ? '/' : pageUrl(r.int(0, i - 1), seed));
  const path = pagePath(r, i);
  if (i === 0) return { path, source: ordinaryPage(r, 'Introduction') };
  if (i === 1) return { path, source: changelog(r) };
  const slug = path.slice(path.lastIndexOf('/') + 1, -'.mdx'.length);
  return { path, source: ordinaryPage(r, `${r.pick(TITLE_WORDS)}: ${slug.replace(/-\d+$/, '')} ${i}`) };
}

/** Every page of a corpus of `pages` pages. */
export function corpusPages(pages: number, seed = DEFAULT_SEED): CorpusFile[] {
  return Array.from({ length: pages }, (_, i) => corpusPage(i, seed));
}

/** Writes the corpus into `dir` (created), commits it, and returns its statistics. */
export function generateCorpus(dir: string, pages: number, seed = DEFAULT_SEED): CorpusStats {
  const files = corpusPages(pages, seed);
  fs.mkdirSync(path.join(dir, 'public/images'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({ name: 'Corpus', theme: 'larch' }, null, 2));
  fs.writeFileSync(path.join(dir, 'public/favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(dir, 'public/images/screenshot.png'), PNG);
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, file.path), file.source);
  }
  commitAll(dir, 'corpus', true);
  return corpusStats(files);
}

/** Commits every change in `dir` (a new repository when `init`). */
export function commitAll(dir: string, message: string, init = false): void {
  const env = { ...process.env, GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'b@x' };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore', env });
  if (init) git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '--allow-empty', '-m', message);
}

/**
 * A page's text after the benchmark's `variant`-th edit: one paragraph added at its end (in place
 * of an earlier edit's), which any page that builds takes without changing meaning.
 */
export function editedSource(source: string, variant: number): string {
  return `${source.replace(/(\s*Revised \d+ time\(s\)\.)?\s*$/, '')}\n\n${editMarker(variant)}\n`;
}

/** The text the `variant`-th edit adds, to look for on the published page. */
export function editMarker(variant: number): string {
  return `Revised ${variant} time(s).`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { flags } = parseArgs(process.argv.slice(2));
  const pages = Number(flags.pages ?? 270);
  const seed = Number(flags.seed ?? DEFAULT_SEED);
  if (typeof flags.out === 'string') console.log(formatStats(generateCorpus(flags.out, pages, seed)));
  else console.log(formatStats(corpusStats(corpusPages(pages, seed))));
}
