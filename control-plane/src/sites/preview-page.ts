/**
 * What a preview host adds to the preview's files at serve time: `noindex` and the banner. The
 * built files stay exactly what a production build of the same commit makes (the builder does
 * not know it builds a preview), so its incremental cache and the production site's are one.
 */
import { escapeHtml } from '../http/escape-html.ts';

/** Every preview disallows every crawler, whatever the branch's own robots.txt says. */
export const PREVIEW_ROBOTS_TXT = 'User-agent: *\nDisallow: /\n';

/** Sent with every response of a preview host. */
export const PREVIEW_ROBOTS_HEADER = 'noindex';

/** The banner: which branch this is and a link to the production site (inline styles: the theme does not know it). */
export function previewBanner(branch: string, productionUrl: string): string {
  return '<div class="folio-preview-banner" role="status" style="position:sticky;top:0;z-index:1000;padding:6px 12px;'
    + 'background:#fef3c7;color:#78350f;border-bottom:1px solid #f59e0b;font:14px/1.4 system-ui,sans-serif;text-align:center">'
    + `Preview of branch <strong>${escapeHtml(branch)}</strong> · <a href="${escapeHtml(productionUrl)}" style="color:inherit">Go to the production site</a></div>`;
}

/**
 * `html` with `<meta name="robots" content="noindex">` at the end of its head and the banner at
 * the start of its body; a document without them gets both in front.
 */
export function decoratePreviewHtml(html: string, branch: string, productionUrl: string): string {
  const meta = '<meta name="robots" content="noindex">';
  const banner = previewBanner(branch, productionUrl);
  const head = html.indexOf('</head>');
  let out = head >= 0 ? html.slice(0, head) + meta + html.slice(head) : meta + html;
  const body = /<body\b[^>]*>/i.exec(out);
  out = body ? out.slice(0, body.index + body[0].length) + banner + out.slice(body.index + body[0].length) : banner + out;
  return out;
}
