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
  /**
   * Header style (`data-header` on `<html>`): `plain` (page colour, bottom rule), `bar` (a dark
   * bar in both modes: the dark logo is shown on it), `floating` (a detached rounded bar with a
   * shadow), `transparent` (no background or rule, scrolls away on wide screens).
   */
  header: 'plain' | 'bar' | 'floating' | 'transparent';
  /**
   * Sidebar style (`data-sidebar`): `plain` (a list), `lines` (a rail beside each list, the
   * current page marked on it), `cards` (each top-level group in a card), `panel` (a tinted,
   * full-height panel).
   */
  sidebar: 'plain' | 'lines' | 'cards' | 'panel';
  /** Reading column (`data-width`): `narrow` 40rem, `reading` 46rem, `wide` 54rem. */
  width: 'narrow' | 'reading' | 'wide';
  /**
   * Code block frame (`data-code`): `bordered` (box), `flat` (tinted, no rule), `window` (a
   * title bar with three dots and a shadow), `rule` (an accent rule on the left only).
   */
  code: 'bordered' | 'flat' | 'window' | 'rule';
}

/**
 * Theme traits: the layout each theme picks (shared styles in base.css keyed by data
 * attributes), while its own stylesheet sets typography, density, corner radius and palette.
 * Cedar, oak, slate and terminal are the themes with a sidebar footer bar (their sidebars are
 * full-height panels with room at the bottom); the others keep the sidebar a list that scrolls
 * with the page.
 */
export const THEME_TRAITS: Record<ThemeName, ThemeTraits> = {
  cedar: { sidebarFooterControls: true, footerWidth: 'content', header: 'bar', sidebar: 'lines', width: 'reading', code: 'rule' },
  obsidian: { sidebarFooterControls: false, footerWidth: 'full', header: 'floating', sidebar: 'lines', width: 'wide', code: 'window' },
  birch: { sidebarFooterControls: false, header: 'plain', sidebar: 'cards', width: 'reading', code: 'flat' },
  oak: { sidebarFooterControls: true, footerWidth: 'content', header: 'plain', sidebar: 'panel', width: 'wide', code: 'bordered' },
  cypress: { sidebarFooterControls: false, footerWidth: 'content', header: 'plain', sidebar: 'lines', width: 'wide', code: 'flat' },
  ember: { sidebarFooterControls: false, footerWidth: 'full', header: 'transparent', sidebar: 'cards', width: 'wide', code: 'window' },
  larch: { sidebarFooterControls: false, header: 'plain', sidebar: 'plain', width: 'reading', code: 'bordered' },
  sage: { sidebarFooterControls: false, header: 'transparent', sidebar: 'plain', width: 'narrow', code: 'flat' },
  slate: { sidebarFooterControls: true, footerWidth: 'full', header: 'bar', sidebar: 'panel', width: 'wide', code: 'bordered' },
  terminal: { sidebarFooterControls: true, footerWidth: 'content', header: 'plain', sidebar: 'lines', width: 'reading', code: 'window' },
};

/** Every theme name, in a stable order (the CSS build and tests iterate it). */
export const THEMES = Object.keys(THEME_TRAITS) as ThemeName[];

/**
 * Separator between the page title and the site title in `<title>`. One separator for every
 * theme (" - "): browser tabs and search results then read the same whichever theme a site picks.
 */
export const TITLE_SEPARATOR = ' - ';
