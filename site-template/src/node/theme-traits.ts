import type { ThemeName } from '../shared/types.ts';

/** Per-theme decisions the shell needs beyond CSS. */
export interface ThemeTraits {
  /**
   * Whether the theme's sidebar footer renders controls. Only these themes honour the `sidebar`
   * placement of the version and product switchers (spec 2.11); on the others those switchers
   * fall back to the header so they stay reachable. `auto` puts version and product in the
   * sidebar footer on these themes and in the header elsewhere.
   */
  sidebarFooterControls: boolean;
  /** Footer width when `footer.width` is omitted; `reading` when the theme has none. */
  footerWidth?: 'reading' | 'content' | 'full';
}

/**
 * Theme traits. Cedar, oak, slate and terminal are the themes with a sidebar footer bar
 * (their sidebars are full-height panels with room at the bottom); the others keep the sidebar
 * a plain list that scrolls with the page.
 */
export const THEME_TRAITS: Record<ThemeName, ThemeTraits> = {
  cedar: { sidebarFooterControls: true, footerWidth: 'content' },
  obsidian: { sidebarFooterControls: false, footerWidth: 'full' },
  birch: { sidebarFooterControls: false },
  oak: { sidebarFooterControls: true, footerWidth: 'content' },
  cypress: { sidebarFooterControls: false, footerWidth: 'content' },
  ember: { sidebarFooterControls: false, footerWidth: 'full' },
  larch: { sidebarFooterControls: false },
  sage: { sidebarFooterControls: false },
  slate: { sidebarFooterControls: true, footerWidth: 'full' },
  terminal: { sidebarFooterControls: true, footerWidth: 'content' },
};

/** Every theme name, in a stable order (the CSS build and tests iterate it). */
export const THEMES = Object.keys(THEME_TRAITS) as ThemeName[];

/**
 * Separator between the page title and the site title in `<title>`. One separator for every
 * theme (" - "): browser tabs and search results then read the same whichever theme a site picks.
 */
export const TITLE_SEPARATOR = ' - ';
