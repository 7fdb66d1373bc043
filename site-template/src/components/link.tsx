/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';

/** Props of `<Link>`: `href` and the link's content; other props pass to the `<a>`. */
export interface LinkProps { href?: string; children?: ComponentChildren; [attribute: string]: unknown }

/** A link, as custom components write it (Mintlify's `<Link>`); without `href`, its text alone. */
export function Link({ href, children, ...rest }: LinkProps) {
  // A script URL would run in the reader's page: it renders as text, like a link without `href`.
  if (typeof href !== 'string' || href === '' || /^\s*(?:javascript|vbscript|data):/i.test(href)) return <span>{children}</span>;
  const allowed = Object.fromEntries(Object.entries(rest).filter(([key, value]) => /^(?:class|className|id|title|target|rel|aria-[a-z]+)$/.test(key) && typeof value === 'string'));
  return <a {...allowed} href={href}>{children}</a>;
}
