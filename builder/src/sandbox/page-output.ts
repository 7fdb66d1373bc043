/**
 * The size limit of one compiled page's output, shared by the sandbox (which fails an oversized
 * page before its bytes cross) and the builder (which checks again). Kept apart from results.ts
 * so the sandbox does not load the schema library for it.
 */
/**
 * Characters a compiled page may carry in its body, Markdown export and search text together:
 * far beyond real pages (a 160 KB changelog renders about 1 MB), small enough that one page
 * cannot make the builder hold gigabytes.
 */
export const MAX_PAGE_OUTPUT = 20 * 1024 * 1024;

/** The failure message of a page whose output is `size` characters, or undefined when it fits. */
export function outputTooLarge(size: number): string | undefined {
  return size > MAX_PAGE_OUTPUT ? `Page output is ${Math.ceil(size / 1024 / 1024)} M characters; the limit is ${MAX_PAGE_OUTPUT / 1024 / 1024} M` : undefined;
}

/** Characters of a compiled page's large fields. */
export function outputSize(page: { bodyHtml: string; markdown: string; searchText: string; updates?: Array<{ html: string }> }): number {
  return page.bodyHtml.length + page.markdown.length + page.searchText.length + (page.updates ?? []).reduce((n, u) => n + u.html.length, 0);
}
