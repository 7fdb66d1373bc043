/**
 * What the site server changes in a stored file as it serves it: a preview's noindex and banner
 * (preview-page.ts), and on a branded site (site-branding.ts) the "Powered by Folio" badge on
 * every HTML document and the `<generator>` line in every RSS feed. The stored files stay what
 * the build made, so the badge follows the organization's current plan.
 */
import { withPoweredByBadge, withPoweredByGenerator } from '@folio/site-template/shared/powered-by.ts';
import { decoratePreviewHtml } from './preview-page.ts';

export interface Decoration {
  /** Turns the stored bytes into the served ones. */
  apply(stored: Uint8Array): Buffer;
  /** Added to the ETag, so a cached copy made under another decoration is not answered 304. */
  etagSuffix: string;
}

/** The decoration of `key` served as `type`, or undefined when it is served as stored. */
export function decorationFor(key: string, type: string, opts: { preview?: { branch: string; productionUrl: string }; branded: boolean }): Decoration | undefined {
  const html = type.startsWith('text/html');
  const feed = opts.branded && /(^|\/)rss\.xml$/.test(key);
  const preview = html ? opts.preview : undefined;
  const badge = html && opts.branded;
  if (!preview && !badge && !feed) return undefined;
  return {
    etagSuffix: `${preview ? '-preview' : ''}${badge || feed ? '-badge' : ''}`,
    apply(stored) {
      let text = Buffer.from(stored).toString('utf8');
      if (preview) text = decoratePreviewHtml(text, preview.branch, preview.productionUrl);
      if (badge) text = withPoweredByBadge(text);
      if (feed) text = withPoweredByGenerator(text);
      return Buffer.from(text);
    },
  };
}
