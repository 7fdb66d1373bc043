/**
 * The "Powered by Folio" badge of sites on the free and pro plans. Sites on team and enterprise
 * (white labeling) have none. The badge is not part of any built file: the site server adds it
 * to pages and feeds when it serves them, after reading the organization's current plan, so a
 * plan change shows on the next request without a new build (docs/decisions/107).
 *
 * The markup carries its own inline styles (the site's stylesheet may be older than the badge)
 * and reads the theme's colours through its custom properties, with fallbacks. It is a block
 * at the end of the page, after the footer: never fixed or floating, so it cannot cover content.
 */

/** Where the badge links. */
export const POWERED_BY_URL = 'https://folio.dev/?ref=powered-by';

/** The words of the badge. */
export const POWERED_BY_TEXT = 'Powered by Folio';

/** The badge's class, so tests and the site's CSS can find it. */
export const POWERED_BY_CLASS = 'folio-powered-by';

/** The badge as an HTML fragment, placed just before `</body>`. */
export const POWERED_BY_HTML = `<div class="${POWERED_BY_CLASS}" data-pagefind-ignore="all" style="display:flex;justify-content:center;padding:12px 16px 16px;margin:0">`
  + `<a href="${POWERED_BY_URL}" rel="noopener" style="display:inline-block;font:500 12px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;`
  + 'color:var(--muted,#6b7280);text-decoration:none;padding:2px 10px;border:1px solid var(--border,#e5e7eb);border-radius:999px;'
  + `background:var(--bg,transparent)">${POWERED_BY_TEXT}</a></div>`;

/** The RSS `<generator>` line a feed of a branded site carries. */
export const POWERED_BY_GENERATOR = '<generator>Folio (https://folio.dev)</generator>';

/** `html` with the badge before its closing `</body>` (appended when there is none). */
export function withPoweredByBadge(html: string): string {
  const end = html.lastIndexOf('</body>');
  return end >= 0 ? html.slice(0, end) + POWERED_BY_HTML + html.slice(end) : html + POWERED_BY_HTML;
}

/** An RSS document with the `<generator>` line after its `<channel>` (unchanged without one). */
export function withPoweredByGenerator(xml: string): string {
  const channel = xml.indexOf('<channel>');
  if (channel < 0) return xml;
  const at = channel + '<channel>'.length;
  return `${xml.slice(0, at)}\n${POWERED_BY_GENERATOR}${xml.slice(at)}`;
}
