import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ClientAssets, ThemeName } from '../shared/types.ts';
import { renderPage } from './render-page.tsx';
import { samplePageInput, sampleSite } from './sample-site.tsx';

/** Budget for a typical page's HTML + CSS + JS, gzipped (Pagefind chunks excluded). */
export const PAGE_WEIGHT_BUDGET = 60 * 1024;

/** Gzipped bytes (level 9) of the sample page in one theme, by part. */
export interface PageWeight { theme: ThemeName; html: number; css: number; js: number; total: number }

/**
 * Weighs the sample page (every component, full sidebar, footer columns) in `theme`, with the
 * client assets that `buildClientAssets` wrote to `dir`.
 */
export async function pageWeight(dir: string, assets: ClientAssets, theme: ThemeName): Promise<PageWeight> {
  const gz = (s: string | Buffer) => gzipSync(s, { level: 9 }).length;
  const html = gz(renderPage(samplePageInput(sampleSite(theme), assets)));
  const css = gz(await readFile(join(dir, assets.css[theme])));
  const js = gz(await readFile(join(dir, assets.js)));
  return { theme, html, css, js, total: html + css + js };
}
