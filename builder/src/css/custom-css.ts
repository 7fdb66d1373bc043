/**
 * Custom CSS (a `pro` feature): `style.css` at the docs root, every file listed in the `css`
 * key of docs.json (repository paths ending in `.css`, applied in that order after `style.css`),
 * then every other `.css` file of the docs root (as Mintlify includes them) become one stylesheet, linked after the theme's CSS and the utilities, so its
 * rules win over the theme's at equal specificity.
 *
 * The stylesheet may load nothing from outside the site: every `@import` is removed (the files
 * are joined into one, so a local import has nothing to point at; list the file under `css`
 * instead), and every `url()`, `image-set()` and the like whose target is not a root-relative or
 * relative path, a `#fragment`, a `data:image/…` URI or an absolute URL on the site's own origin
 * is replaced with `none` (sanitize-css.ts, the sanitiser the Tailwind utilities and uploaded
 * SVGs go through too). Each removal is a build warning naming the file.
 */
import { z } from 'zod';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { sanitizeSiteCss } from './sanitize-css.ts';
import { sha256 } from '../sha256.ts';

/** The docs.json key listing extra stylesheets. */
export const CSS_CONFIG_KEY = 'css';
/** The stylesheet picked up without configuration. */
export const DEFAULT_CSS_FILE = 'style.css';
/** Bytes of custom CSS a site may have, all files together. */
export const MAX_CUSTOM_CSS_BYTES = 512 * 1024;

const cssList = z.array(z.string().regex(/^[^\0]+\.css$/i, 'must be a repository path ending in .css').max(300)).max(20);

/**
 * Removes what would load from outside the site (see the module comment and sanitize-css.ts);
 * returns the CSS and a warning per removal.
 */
export function sanitizeCustomCss(css: string, file: string, siteUrl: string): { css: string; warnings: string[] } {
  const clean = sanitizeSiteCss(css, { siteUrl });
  const warnings = clean.removed.map((what) => what.startsWith('@import')
    ? `${file}: ${what} removed; custom CSS loads nothing else (list repository stylesheets under "${CSS_CONFIG_KEY}" in docs.json)`
    : `${file}: ${what} removed; only files of this site may be loaded`);
  return { css: clean.css, warnings };
}

/** Folders whose files are never the site's own stylesheets or scripts: dot-folders, `node_modules/`, `public/` (published as they are), `snippets/`. */
const NOT_SITE_CODE = /(?:^|\/)(?:\.[^/]*|node_modules)\/|^(?:public|_?snippets)\//;

/** Files of the docs root ending in `ext` that Mintlify includes on every page (its "any `.css`/`.js` file in your content directory"), sorted. */
export function siteFilesEnding(snapshot: Pick<RepoSnapshot, 'files'>, ext: '.css' | '.js'): string[] {
  return [...snapshot.files.keys()].filter((p) => p.toLowerCase().endsWith(ext) && !NOT_SITE_CODE.test(p)).sort();
}

/** `a.css`, `a.css and b.css`, `a.css, b.css and 3 more`: files named in one line. */
export function fileList(files: readonly string[]): string {
  if (files.length <= 2) return files.join(' and ');
  return `${files.slice(0, 2).join(', ')} and ${files.length - 2} more`;
}

/**
 * The stylesheets a repository asks for: `style.css` if present, then the `css` list of
 * docs.json, then every other `.css` file of the docs root (Mintlify includes them all).
 */
export function customCssFiles(snapshot: Pick<RepoSnapshot, 'files'>, rawConfig: unknown): { files: string[]; warnings: string[] } {
  const warnings: string[] = [];
  const files: string[] = snapshot.files.has(DEFAULT_CSS_FILE) ? [DEFAULT_CSS_FILE] : [];
  const listed = rawConfig && typeof rawConfig === 'object' ? (rawConfig as Record<string, unknown>)[CSS_CONFIG_KEY] : undefined;
  if (listed !== undefined) {
    const parsed = cssList.safeParse(listed);
    if (!parsed.success) {
      warnings.push(`docs.json: ${CSS_CONFIG_KEY}: ignored; expected an array of at most 20 repository paths ending in .css`);
    } else {
      for (const raw of parsed.data) {
        const p = raw.replace(/^\.?\//, '');
        if (!snapshot.files.has(p)) warnings.push(`docs.json: ${CSS_CONFIG_KEY}: ${raw} does not exist in the repository; ignored`);
        else if (!files.includes(p)) files.push(p);
      }
    }
  }
  for (const p of siteFilesEnding(snapshot, '.css')) if (!files.includes(p)) files.push(p);
  return { files, warnings };
}

/** The joined, sanitised custom stylesheet of a repository (`''` when it has none). */
export async function buildCustomCss(snapshot: RepoSnapshot, rawConfig: unknown, siteUrl: string): Promise<{ css: string; warnings: string[] }> {
  const { files, warnings } = customCssFiles(snapshot, rawConfig);
  const parts: string[] = [];
  let size = 0;
  for (const file of files) {
    const bytes = await snapshot.read(file);
    size += bytes.byteLength;
    if (size > MAX_CUSTOM_CSS_BYTES) { warnings.push(`${file}: ignored; custom CSS may be at most ${MAX_CUSTOM_CSS_BYTES / 1024} KB in all`); break; }
    const clean = sanitizeCustomCss(Buffer.from(bytes).toString('utf8'), file, siteUrl);
    warnings.push(...clean.warnings);
    parts.push(`/* ${file.replace(/\*\//g, '* /')} */\n${clean.css.trim()}\n`);
  }
  return { css: parts.join('\n'), warnings };
}

/** Object key of the custom stylesheet, named by its content. */
export function customCssKey(css: string): string {
  return `_folio/custom-${sha256(css).slice(0, 12)}.css`;
}
