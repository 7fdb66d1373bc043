/**
 * The parsed form of `navigation` in `docs.json` (navigation-schema.ts parses it): types only,
 * so the modules that read the tree (nav/) need not import the schema that checks it.
 */
import type { AccessKeys } from '../access/access-keys.ts';
/**
 * Kinds of navigation divisions, in the order a level's children are laid out. `item` is an item
 * of Mintlify's `menu` (written `"menu": [{ "item": "…" }]`, on tabs and products): the dropdown
 * of a header tab whose selected item fills the sidebar.
 */
export const divisionKinds = ['language', 'version', 'product', 'dropdown', 'tab', 'item', 'anchor'] as const;
export type DivisionKind = (typeof divisionKinds)[number];

/** A group of the sidebar. */
export interface NavigationGroup {
  group: string;
  pages: NavigationEntry[];
  icon?: string;
  /** Open by default (Mintlify's `expanded`, or `isDefaultOpen`). */
  expanded?: boolean;
  /** Search ranking multiplier of the group's pages (Mintlify's `boost`); the nearest group's wins. */
  boost?: number;
  /** `false`: its pages are left out of search; `true` keeps a hidden group's pages searchable. */
  searchable?: boolean;
  /** Page the group title links to. */
  root?: string;
  tag?: string;
  hidden?: boolean;
  /**
   * Mintlify's `openapi` on a group (the document's path or URL; `''` when written otherwise):
   * with no `pages`, the group lists every generated API reference page, by tag.
   */
  openapi?: string;
  /** Mintlify's `asyncapi` on a group: with no `pages`, the group lists a page per channel of that AsyncAPI document. */
  asyncapi?: string;
  /** Who may read its pages (`groups`, `public`), when reader authentication is on (access/). */
  access?: AccessKeys;
}

/** A division of the site: a tab, anchor, dropdown, language, version or product. */
export interface NavigationDivision {
  division: DivisionKind;
  /** The `tab`/`anchor`/… value: its label (a language code for languages). */
  name: string;
  items: NavigationEntry[];
  /** Where each item was written, relative to the division (`["tabs", 0]`), for error messages. */
  paths: (string | number)[][];
  icon?: string;
  href?: string;
  default?: boolean;
  tag?: string;
  hidden?: boolean;
  description?: string;
  /** `false`: its pages are left out of search; `true` keeps a hidden division's pages searchable. */
  searchable?: boolean;
  /** Mintlify's `openapi` on a division, as on a group. */
  openapi?: string;
  /** Mintlify's `asyncapi` on a division, as on a group. */
  asyncapi?: string;
  /**
   * Languages and versions only: the folder under contentRoot holding the division's pages and
   * the URL segment they are served under (`v2` → `docs/v2/…`, `/v2/…`). Default: the version
   * name, or the language code in lower case; the default division has none unless given.
   */
  prefix?: string;
}

/** One item of the navigation tree: a page path, a group or a division. */
export type NavigationEntry = string | NavigationGroup | NavigationDivision;

/** A link of `navigation.global` (shown in the header on every page). */
export interface GlobalLink { kind: DivisionKind; label: string; href: string; icon?: string }

/** The parsed navigation. */
export interface Navigation { items: NavigationEntry[]; paths: (string | number)[][]; global: GlobalLink[] }
