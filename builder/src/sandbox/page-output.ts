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

/**
 * Bytes of JSON a page may take in a deployment's page report (its source, HTML and search text,
 * with its title, description and URL): the control plane stores a page as one database document,
 * which MongoDB limits to 16 MiB.
 */
export const MAX_PAGE_RECORD_BYTES = 15 * 1024 * 1024;
/** What a page's title, description, URL and version may add to its record, at most (their own limits, escaped). */
const RECORD_FIELDS_BYTES = 64 * 1024;

/** The customer's message for a page of `bytes` over {@link MAX_PAGE_RECORD_BYTES}. */
export function pageRecordTooLarge(bytes: number): string {
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  return `Unexpected page of ${mb(bytes)} MB (its source, HTML and search text together); expected at most ${mb(MAX_PAGE_RECORD_BYTES)} MB: split it into smaller pages`;
}

/**
 * The failure message of a compiled page too large to store in a page report, or undefined when
 * it fits. Counted cheaply first (JSON takes at most 6 bytes a character): only a page that may
 * be near the limit is measured.
 */
export function storedTooLarge(source: string, page: { bodyHtml: string; searchText: string }): string | undefined {
  const chars = source.length + page.bodyHtml.length + page.searchText.length;
  if (chars * 6 + RECORD_FIELDS_BYTES <= MAX_PAGE_RECORD_BYTES) return undefined;
  const bytes = Buffer.byteLength(JSON.stringify([source, page.bodyHtml, page.searchText])) + RECORD_FIELDS_BYTES;
  return bytes > MAX_PAGE_RECORD_BYTES ? pageRecordTooLarge(bytes) : undefined;
}
