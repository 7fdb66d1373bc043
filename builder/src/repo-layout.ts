/**
 * Which files of a repository are pages and which are published as static files. Mintlify
 * repositories keep pages at the repository root beside `images/`, `logo/`, snippets and the
 * repository's own files; the rules below (documented in builder/README.md, "Repository
 * layout") let such a repository build unchanged without turning its README into a page:
 *
 * - pages are the `.md`/`.mdx` files under `contentRoot`, except those in a dot-folder
 *   (`.github/`, `.vale/`, …), in `node_modules/`, in the content root's `snippets/` folder (files
 *   to import, not pages), the repository files README, CONTRIBUTING, CHANGELOG, LICENSE,
 *   CODE_OF_CONDUCT, SECURITY and SUPPORT (upper case, `.md`, at the content root) unless the
 *   navigation lists them (Mintlify builds a listed `README` as a page), and any path matched by
 *   `.mintignore` (gitignore syntax, at the repository root);
 * - skill files for agents (`skill.md` at the content root, `SKILL.md` in any folder) are
 *   published as they are, not as pages, unless the navigation lists them;
 * - static files are `public/` (published at the site root, as before) and every file under the
 *   content root with a media, font or document extension ({@link ASSET_EXTENSIONS}) outside
 *   dot-folders, `node_modules/` and `.mintignore`, published at its path relative to the content
 *   root (`images/hero.png` → `/images/hero.png`). A `public/` file wins over a content file of
 *   the same name.
 */
import ignore from 'ignore';

/** Name of the ignore file at the repository root (Mintlify's name; gitignore syntax). */
export const IGNORE_FILE = '.mintignore';

/** Extensions of files under the content root published as they are. */
export const ASSET_EXTENSIONS = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'avif', 'ico', 'bmp', 'tif', 'tiff',
  'mp4', 'webm', 'mov', 'm4v', 'ogv', 'mp3', 'wav', 'ogg', 'm4a',
  'woff', 'woff2', 'ttf', 'otf', 'eot',
  'pdf', 'zip', 'csv', 'txt', 'yaml', 'yml', 'xml', 'webmanifest',
]);

/**
 * Skill files for agents, served as they are (Mintlify serves a root `skill.md` at `/skill.md`):
 * `skill.md` at the content root, and `SKILL.md` in any folder (`skills/payments/SKILL.md`, the
 * agent skills layout), unless the navigation lists them as pages.
 */
const SKILL_FILES = /^(?:skill\.md|(?:.+\/)?SKILL\.md)$/;

/** Repository files that are never pages when they sit at the content root. */
const REPOSITORY_FILES = /^(README|CONTRIBUTING|CHANGELOG|LICENSE|CODE_OF_CONDUCT|SECURITY|SUPPORT)\.mdx?$/;

/** The pages and static files of a repository snapshot. */
export interface RepoLayout {
  /** Page sources (repository paths), sorted. */
  pages: string[];
  /** Repository path → site key of every static file, `public/` first. */
  assets: Map<string, string>;
}

const hidden = (rel: string) => rel.split('/').some((segment) => segment.startsWith('.') || segment === 'node_modules');

/**
 * Sorts the repository's files into pages and static files.
 *
 * @param ignoreText the text of `.mintignore`, when the repository has one.
 * @param listed page paths the navigation names (`README`): repository files listed there are pages.
 */
export function repoLayout(paths: Iterable<string>, contentRoot: string, ignoreText?: string, listed?: ReadonlySet<string>): RepoLayout {
  const ignored = ignore({ allowRelativePaths: true });
  if (ignoreText) ignored.add(ignoreText);
  const pages: string[] = [];
  const publicFiles: [string, string][] = [];
  const contentFiles: [string, string][] = [];
  for (const repoPath of paths) {
    if (repoPath.startsWith('public/')) {
      publicFiles.push([repoPath, repoPath.slice('public/'.length)]);
      continue;
    }
    if (!repoPath.startsWith(contentRoot)) continue;
    const rel = repoPath.slice(contentRoot.length);
    // Without an ignore file nothing is asked: `ignores` costs ~9 µs a path, on every build.
    if (hidden(rel) || (ignoreText && ignored.ignores(repoPath))) continue;
    if (/\.mdx?$/.test(rel)) {
      if (SKILL_FILES.test(rel) && !listed?.has(rel.replace(/\.md$/, ''))) { contentFiles.push([repoPath, rel]); continue; }
      // Files in `snippets/` and `_snippets/` are snippets, never pages (as on Mintlify).
      if (!/^_?snippets\//.test(rel) && (!REPOSITORY_FILES.test(rel) || listed?.has(rel.replace(/\.mdx?$/, '')))) pages.push(repoPath);
      continue;
    }
    const ext = /\.([a-z0-9]+)$/i.exec(rel)?.[1]?.toLowerCase();
    if (ext && ASSET_EXTENSIONS.has(ext)) contentFiles.push([repoPath, rel]);
  }
  return { pages: pages.sort(), assets: new Map([...publicFiles.sort(), ...contentFiles.sort()]) };
}
