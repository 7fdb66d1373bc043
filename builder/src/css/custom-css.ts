/**
 * Custom CSS (a `pro` feature): `style.css` at the repository root and every file listed in
 * the `css` key of docs.json (repository paths ending in `.css`, applied in that order after
 * `style.css`) become one stylesheet, linked after the theme's CSS and the utilities, so its
 * rules win over the theme's at equal specificity.
 *
 * The stylesheet may load nothing from outside the site: every `@import` is removed (the files
 * are joined into one, so a local import has nothing to point at; list the file under `css`
 * instead), and every `url()` other than a root-relative or relative path, a `#fragment`, a
 * `data:` URI or an absolute URL on the site's own origin is replaced with `none`. Each removal
 * is a build warning naming the file. Decisions are made on CSS tokens (css-tokens.ts), so an
 * escaped `\75 rl(` is judged as the `url(` a browser sees.
 */
import { z } from 'zod';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { tokenizeCss, type CssToken } from './css-tokens.ts';
import { sha256 } from '../sha256.ts';

/** The docs.json key listing extra stylesheets. */
export const CSS_CONFIG_KEY = 'css';
/** The stylesheet picked up without configuration. */
export const DEFAULT_CSS_FILE = 'style.css';
/** Bytes of custom CSS a site may have, all files together. */
export const MAX_CUSTOM_CSS_BYTES = 512 * 1024;

const cssList = z.array(z.string().regex(/^[^\0]+\.css$/i, 'must be a repository path ending in .css').max(300)).max(20);

/** Whether a `url()` target stays inside the site. */
function allowedUrl(value: string, siteOrigin: string): boolean {
  const v = value.trim();
  if (v === '' || v.startsWith('#')) return true;
  if (/^data:/i.test(v)) return true;
  if (v.startsWith('//') || v.startsWith('\\\\') || v.startsWith('/\\')) return false;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(v)) return true; // a path: it resolves on the site
  try { return new URL(v).origin === siteOrigin; } catch { return false; }
}

/** Removes what would load from outside the site (see the module comment); returns the CSS and a warning per removal. */
export function sanitizeCustomCss(css: string, file: string, siteUrl: string): { css: string; warnings: string[] } {
  const siteOrigin = (() => { try { return new URL(siteUrl).origin; } catch { return ''; } })();
  const tokens = tokenizeCss(css);
  const out: string[] = [];
  const warnings: string[] = [];
  const next = (from: number) => { let j = from; while (j < tokens.length && (tokens[j].type === 'ws' || tokens[j].type === 'comment')) j++; return j; };
  for (let i = 0; i < tokens.length; i++) {
    const t: CssToken = tokens[i];
    if (t.type === 'at-keyword' && t.value.toLowerCase() === 'import') {
      let j = i + 1;
      const parts: string[] = [];
      while (j < tokens.length && tokens[j].type !== ';' && tokens[j].type !== '{') parts.push(tokens[j++].raw);
      warnings.push(`${file}: @import${parts.join('').trimEnd()} removed; custom CSS loads nothing else (list repository stylesheets under "${CSS_CONFIG_KEY}" in docs.json)`);
      i = tokens[j]?.type === ';' ? j : j - 1;
      continue;
    }
    if (t.type === 'url' || t.type === 'bad-url') {
      if (t.type === 'url' && allowedUrl(t.value, siteOrigin)) { out.push(t.raw); continue; }
      warnings.push(`${file}: url(${t.value.slice(0, 200)}) removed; only files of this site may be loaded`);
      out.push('none');
      continue;
    }
    if (t.type === 'function' && ['url', 'src'].includes(t.value.toLowerCase())) {
      const arg = next(i + 1);
      const close = next(arg + 1);
      const target = tokens[arg];
      if (target?.type === 'string' && tokens[close]?.type === ')' && allowedUrl(target.value, siteOrigin)) {
        for (let k = i; k <= close; k++) out.push(tokens[k].raw);
        i = close;
        continue;
      }
      let depth = 1;
      let j = i + 1;
      for (; j < tokens.length && depth > 0; j++) {
        if (tokens[j].type === '(' || tokens[j].type === 'function') depth++;
        else if (tokens[j].type === ')') depth--;
      }
      warnings.push(`${file}: ${t.value}(${target?.type === 'string' ? target.value.slice(0, 200) : '…'}) removed; only files of this site may be loaded`);
      out.push('none');
      i = j - 1;
      continue;
    }
    out.push(t.raw);
  }
  return { css: out.join(''), warnings };
}

/** The stylesheets a repository asks for: `style.css` if present, then the `css` list of docs.json. */
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
