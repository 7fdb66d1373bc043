/**
 * Builds the `CompiledPage` from what compiling (facts) and rendering (HTML) produced.
 */
import type { CompiledPage } from '../types.ts';
import type { PageFacts } from './remark-folio.ts';
import type { RenderedPage } from './render.ts';
import { urlPathFor } from './url-path.ts';

/** Longest icon value kept (names are short; a longer value is an image URL). */
export const MAX_ICON = 2048;

/** Assembles one page's result. */
export function assemblePage(sourcePath: string, contentRoot: string, facts: PageFacts, rendered: RenderedPage): CompiledPage {
  const fm = facts.frontmatter;
  const page: CompiledPage = {
    sourcePath,
    urlPath: urlPathFor(sourcePath, contentRoot),
    title: facts.title,
    frontmatter: fm.data,
    bodyHtml: rendered.html,
    markdown: facts.markdown,
    toc: facts.toc,
    updates: facts.updates.map((u, i) => ({ ...u, html: rendered.updates[i] ?? '' })),
    rss: fm.rss,
    searchText: facts.searchText,
  };
  if (fm.sidebarTitle !== undefined) page.sidebarTitle = fm.sidebarTitle;
  if (fm.order !== undefined) page.order = fm.order;
  if (fm.description !== undefined) page.description = fm.description;
  if (fm.seo !== undefined) page.seo = fm.seo;
  if (fm.mode !== undefined) page.mode = fm.mode;
  // Mintlify's page icon: a name, an image path or an emoji, drawn before the sidebar label.
  if (typeof fm.data.icon === 'string' && fm.data.icon.trim() !== '') page.icon = fm.data.icon.trim().slice(0, MAX_ICON);
  if (fm.data.hidden === true) page.hidden = true;
  // Mintlify's `url`: the sidebar entry is a link to another site (http(s) only).
  if (typeof fm.data.url === 'string' && /^https?:\/\/[^\s"'<>]+$/i.test(fm.data.url.trim())) page.url = fm.data.url.trim().slice(0, MAX_ICON);
  if (facts.links.length > 0) page.links = facts.links;
  if (facts.islands) page.islands = facts.islands;
  if (facts.notes.length > 0) page.notes = facts.notes;
  return page;
}
