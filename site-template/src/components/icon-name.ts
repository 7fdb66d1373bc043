/**
 * Icon names as authors write them, read the same on the server (icon-library.ts, reading the
 * icon packages) and in the browser (icon-library.browser.ts, reading the icons a page's
 * interactive components were given when the page was built).
 */

/** A resolved icon: the inner SVG markup, its view box and whether it is stroked (Lucide) or filled. */
export interface IconSvg { library: 'lucide' | 'fontawesome'; viewBox: string; body: string; stroked: boolean }

/** Font Awesome Free's styles, in the order they are tried. */
export const FA_STYLES = ['solid', 'brands', 'regular'] as const;

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Normalises an author's icon name (`fa-Rocket ` → `rocket`), or undefined when it is not a name at all. */
export function iconName(name: string): string | undefined {
  const n = name.trim().toLowerCase().replace(/^fa-(?:solid|regular|brands)\s+/, '').replace(/^fa-/, '');
  return NAME.test(n) ? n : undefined;
}

/**
 * The key an icon is looked up by: its style (`iconType`, a Pro-only style read as `solid`) and
 * normalised name, `:rocket` without a style; undefined for a value that is not a name.
 */
export function iconKey(name: string, iconType?: string): string | undefined {
  const n = iconName(name);
  if (n === undefined) return undefined;
  const type = iconType && FA_STYLES.includes(iconType as never) ? iconType : iconType ? 'solid' : undefined;
  return `${type ?? ''}:${n}`;
}

/** Name of the global holding the icons of a page's interactive components in the browser (key → icon). */
export const BROWSER_ICONS = '__folio_icons__';
