/**
 * The site's font stylesheet: `@font-face` rules for the families docs.json names that are served
 * from the site itself (font-families.ts; latin subset, weights 400/600/700, woff2 only), and for
 * font files docs.json gives by URL (`fonts.source`, fetched by readers' browsers from that host,
 * whose origin the site's Content-Security-Policy then allows). The families come first in the
 * font stack; the theme's fonts stay as fallback (site-template render-page.ts `siteStyle`).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { sha256 } from '../sha256.ts';
import type { Publisher } from '../publish.ts';
import { familySlug, servedFamily, type FontSource } from './font-families.ts';

const require = createRequire(import.meta.url);

/** Weights copied per served family: body text, headings, bold. */
export const SERVED_WEIGHTS = [400, 600, 700] as const;

/** The families and font files a configuration asks for. */
export interface FontRequest {
  typography?: { fontFamily?: string; headingFont?: string; bodyFont?: string };
  fontSources?: FontSource[];
}

/** A family name as a CSS string: letters, digits, spaces, `-`, `_` and `.` only, so docs.json cannot end the rule. */
const quoted = (family: string) => `'${family.replace(/[^\p{L}\p{N} ._-]/gu, '')}'`;

function face(family: string, src: string, weight: number | undefined): string {
  return `@font-face{font-family:${quoted(family)};font-style:normal;font-display:swap;${weight ? `font-weight:${weight};` : ''}src:${src}}`;
}

/** The woff2 files of a served family: name in the package's `files/` and absolute path. */
function packageFiles(family: string): { weight: number; name: string; file: string; version: string }[] {
  const slug = familySlug(family);
  const manifest = require.resolve(`@fontsource/${slug}/package.json`);
  const version = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
  return SERVED_WEIGHTS.flatMap((weight) => {
    const name = `${slug}-latin-${weight}-normal.woff2`;
    const file = path.join(path.dirname(manifest), 'files', name);
    return fs.existsSync(file) ? [{ weight, name, file, version }] : [];
  });
}

/**
 * Publishes the font files and the stylesheet for `request` and returns the stylesheet's key, or
 * undefined when the configuration names no served family and no font file.
 */
export async function publishSiteFonts(request: FontRequest, publisher: Publisher): Promise<string | undefined> {
  const t = request.typography ?? {};
  const families = [...new Set([t.fontFamily, t.headingFont, t.bodyFont].flatMap((v) => (v ? [servedFamily(v)] : [])).filter((f) => f !== undefined))];
  const rules: string[] = [];
  for (const family of families) {
    for (const { weight, name, file, version } of packageFiles(family)) {
      const key = `_folio/fonts/${version}/${name}`;
      if (!publisher.keep(key)) await publisher.emit(key, await fs.promises.readFile(file));
      // Relative to the stylesheet (`_folio/fonts-<hash>.css`), so a base path needs no rewriting.
      rules.push(face(family, `url(fonts/${version}/${name}) format('woff2')`, weight));
    }
  }
  for (const s of request.fontSources ?? []) {
    rules.push(face(s.family, `url(${`"${s.url}"`})${s.format ? ` format('${s.format}')` : ''}`, s.weight));
  }
  if (!rules.length) return undefined;
  const css = `${rules.join('\n')}\n`;
  const key = `_folio/fonts-${sha256(css).slice(0, 16)}.css`;
  if (!publisher.keep(key)) await publisher.emit(key, css);
  return key;
}
