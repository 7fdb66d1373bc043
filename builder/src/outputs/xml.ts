/** XML text helpers for feeds and the sitemap. */

// Characters XML 1.0 forbids even when escaped (C0 controls other than tab, LF, CR; U+FFFE/F).
// eslint-disable-next-line no-control-regex
const INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Escapes text for an XML element or attribute value, dropping characters XML cannot hold. */
export function escapeXml(text: string): string {
  return text.replace(INVALID, '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

/** Wraps markup in CDATA, splitting any `]]>` it contains so the section cannot end early. */
export function cdata(text: string): string {
  return `<![CDATA[${text.replace(INVALID, '').replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}
