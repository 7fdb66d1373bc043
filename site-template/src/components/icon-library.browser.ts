/**
 * The icon lookup of the template's components in the browser, where a page's interactive
 * components (hydrated islands) render them again: the same functions as icon-library.ts, but
 * the icons come from the page's client module (`globalThis.__folio_icons__`, key → icon), which
 * carries only the icons its components can name, resolved when the page was built. The island
 * bundle puts this file in place of icon-library.ts. An icon the module lacks renders nothing.
 */
import { BROWSER_ICONS, iconKey, iconName, type IconSvg } from './icon-name.ts';

export { iconName, type IconSvg };

/** The icon called `name` as the page's client module carries it, or undefined. */
export function resolveIcon(name: string, iconType?: string): IconSvg | undefined {
  const key = iconKey(name, iconType);
  const icons = (globalThis as Record<string, unknown>)[BROWSER_ICONS] as Record<string, IconSvg> | undefined;
  return key === undefined || !icons || !Object.hasOwn(icons, key) ? undefined : icons[key];
}

/** No list of names in the browser (suggestions are the build's). */
export function iconNames(): readonly string[] {
  return [];
}
