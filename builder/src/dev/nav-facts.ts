import { posix } from 'node:path';
import { parse } from 'yaml';
import { MAX_ICON } from '../compile/assemble.ts';
import { urlPathFor } from '../compile/url-path.ts';
import type { NavPage } from '../nav/build-nav.ts';

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * What the sidebar shows of a page, read from its source without compiling it: frontmatter
 * `title`, `sidebarTitle`, `order` and `icon`, else the first `# ` heading, else the file name
 * (the compiler's rules, remark-folio.ts and assemble.ts). The preview uses it for the pages not
 * compiled yet when it answers a page before its first build; the heading's text is taken as
 * written (Markdown marks removed), so a heading with links or components may read differently
 * until the build replaces the page. A frontmatter the compiler would reject counts as none.
 */
export function navFacts(sourcePath: string, source: string, contentRoot: string): NavPage {
  const match = FRONTMATTER.exec(source);
  let data: Record<string, unknown> = {};
  if (match) {
    try {
      const parsed: unknown = parse(match[1], { prettyErrors: false });
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
    } catch {
      // The build reports it, positioned; the sidebar falls back to the heading or file name.
    }
  }
  const body = match ? source.slice(match[0].length) : source;
  const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : undefined);
  const page: NavPage = {
    sourcePath,
    urlPath: urlPathFor(sourcePath, contentRoot),
    title: text('title') ?? (headingTitle(body) || posix.basename(sourcePath).replace(/\.(mdx|md)$/, '')),
  };
  const sidebarTitle = text('sidebarTitle');
  if (sidebarTitle !== undefined) page.sidebarTitle = sidebarTitle;
  if (typeof data.order === 'number' && Number.isFinite(data.order)) page.order = data.order;
  const icon = text('icon')?.trim();
  if (icon) page.icon = icon.slice(0, MAX_ICON);
  return page;
}

/** Text of the first level-1 ATX heading outside code fences, its common inline marks removed. */
function headingTitle(body: string): string {
  let fence: string | undefined;
  for (const line of body.split(/\r?\n/)) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length))) { fence = fence ? undefined : marker; continue; }
    if (fence) continue;
    const heading = /^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (heading) return heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`]/g, '').trim();
  }
  return '';
}
