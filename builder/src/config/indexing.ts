/**
 * Mintlify's `seo.indexing`: `"navigable"` (its default) keeps pages hidden from the navigation
 * (`hidden: true`, and the pages of hidden tabs and groups) out of search engines, the sitemap,
 * search and `llms.txt`; `"all"` indexes them too. A page's own `noindex: true` keeps it out
 * either way.
 */

/** Whether `page` is kept out of indexing for being hidden, on a site whose `seo.indexing` is `indexing`. */
export function hiddenFromIndexing(page: { hidden?: true }, indexing: string | undefined): boolean {
  return page.hidden === true && indexing !== 'all';
}
