/**
 * The contract between the builder and the site template.
 *
 * The builder validates the project configuration (builder/src/config) and hands the template a
 * `SiteConfig` with every default applied and every theme alias resolved; the template never
 * re-validates. Page bodies arrive as finished HTML (MDX already rendered), so the template only
 * renders the shell around them.
 */

export type ThemeName = 'cedar' | 'obsidian' | 'birch' | 'oak' | 'cypress' | 'ember' | 'larch' | 'sage' | 'slate' | 'terminal';
export type ControlPlacement = 'auto' | 'header' | 'sidebar';
export type ControlName = 'appearance' | 'language' | 'version' | 'product' | 'assistant';

export interface Link { label: string; href: string }

/** The resolved project configuration (spec 2.11) with defaults applied. */
export interface SiteConfig {
  name: string;
  theme: ThemeName;
  contentRoot: string;
  appearance: { default: 'light' | 'dark' | 'system'; strict: boolean };
  colors?: {
    primary?: string; light?: string; dark?: string;
    logo?: { light?: string; dark?: string; href: string };
  };
  background?: { light?: string; dark?: string };
  typography?: { fontFamily?: string; headingFont?: string; bodyFont?: string };
  navbar?: {
    links?: Link[];
    primaryCta?: { label: string; href: string; style: 'solid' | 'outline' | 'ghost'; color?: string; textColor?: string; external: boolean };
    controls?: Partial<Record<ControlName, ControlPlacement>> & { order?: ControlName[] };
  };
  legal?: { copyright?: string; privacyUrl?: string; termsUrl?: string; cookieUrl?: string; links?: Link[] };
  footer?: {
    style: 'none' | 'page' | 'columns';
    logo?: boolean;
    social?: Record<string, string>;
    links?: { title: string; items: Link[] }[];
    width?: 'reading' | 'content' | 'full';
  };
  seo?: {
    title?: string; description?: string; keywords?: string[]; author?: string; ogImage?: string;
    favicon?: string; indexing: 'default' | 'noindex' | 'all'; metatags?: Record<string, string>;
  };
  redirects?: { source: string; destination: string; permanent: boolean }[];
  /** A notice above the header of every page; `[label](url)` in the text become links. */
  banner?: { content: string; dismissible: boolean };
  /** `ai.assistant.trigger` resolved; the assistant control shows only for `button`. */
  assistantTrigger?: 'button' | 'none';
  /** Absolute origin of the deployed site, e.g. https://acme.docs.example (sitemap, RSS, canonical). */
  siteUrl: string;
  /** Docs base path, '' for the root. Root-relative links resolve against it. */
  basePath: string;
}

/** One heading of a page's table of contents. */
export interface TocEntry { depth: number; id: string; text: string }

/** Per-page SEO overrides from frontmatter (same keys as `seo`). */
export type PageSeo = Partial<NonNullable<SiteConfig['seo']>>;

/** Kinds of navigation divisions (`navigation` in its object form). */
export type DivisionKind = 'language' | 'version' | 'product' | 'dropdown' | 'tab' | 'item' | 'anchor';

/**
 * A navigation node: a page link, a group of nodes, or a division of the site. Divisions are
 * not drawn as nodes: the page's own language, version, product, dropdown and tab select which
 * part of the tree the sidebar shows, tabs are drawn in the header, anchors at the top of the
 * sidebar, languages and versions as switchers (see `divisions.ts`). A division with `href` and
 * no pages is a link.
 */
export type NavItem =
  /**
   * `icon`: drawn before the label (a Lucide or Font Awesome name, an image path or an emoji).
   * `href`: the page's `url` frontmatter; the entry links to that site instead of the page.
   */
  | { kind: 'page'; title: string; path: string; icon?: string; href?: string }
  /**
   * `expanded` set: the group is collapsible (`<details>`), open when true or when it holds the
   * current page; unset: always open, as before collapsing existed.
   */
  | { kind: 'group'; title: string; items: NavItem[]; expanded?: boolean; path?: string; tag?: string; icon?: string }
  /** `item`: an item of a tab's menu (Mintlify's `menu`), with its `description` and `icon` shown in the tab's dropdown. */
  | { kind: 'division'; division: DivisionKind; title: string; items: NavItem[]; href?: string; default?: boolean; tag?: string; description?: string; icon?: string };

/** Everything the shell needs for one page. `path` is the clean URL path, e.g. `/guides/install`. */
export interface PageShellInput {
  site: SiteConfig;
  page: {
    path: string;
    title: string;
    description?: string;
    /** Rendered MDX body (trusted HTML produced by the builder). */
    bodyHtml: string;
    toc: TocEntry[];
    rss: boolean;
    seo?: PageSeo;
    /** Layout from frontmatter `mode`: `wide` (no TOC), `center` (no sidebar or TOC, centred), `frame` (no title block or TOC), `custom` (a blank canvas under the header). */
    mode?: 'wide' | 'center' | 'frame' | 'custom';
    /** Path of the page's raw Markdown export, e.g. `/guides/install.md`. */
    markdownPath: string;
    /** Path of the page's own RSS feed, e.g. `/guides/install/rss.xml`. */
    feedPath: string;
    /** Path of the module hydrating the page's interactive components (`<folio-island>` roots), when it has any. */
    island?: string;
  };
  nav: NavItem[];
  prev?: { title: string; path: string };
  next?: { title: string; path: string };
  /** Hashed client asset URLs from `buildClientAssets`. */
  assets: ClientAssets;
  /** Pagefind bundle base path, e.g. `/_pagefind/`. */
  searchBase: string;
  /** Year used for `{year}` in the copyright (passed in so output is reproducible). */
  year: number;
  /**
   * Entries of the language, version and product switchers (navbar.controls). The configuration
   * only places these controls; what they list comes from the content, so a switcher renders
   * only when the builder passes its entries here.
   */
  switchers?: Partial<Record<'language' | 'version' | 'product', Switcher>>;
  /** The page's language and version, on sites that have languages or versions. */
  locale?: PageLocale;
}

/**
 * Where a page sits on a site with languages or versions (see builder `nav/dimensions.ts`).
 */
export interface PageLocale {
  /** The page's language (BCP 47) for `<html lang>` and the template's own words; default `en`. */
  lang: string;
  /** The same page in each language (site paths), as `hreflang` links; `x-default` is the default language. */
  alternates?: { hreflang: string; href: string }[];
  /**
   * Set when the page has no text in its language or version and shows another one's: the site
   * path of the page shown (the canonical URL), what is missing, and the names of the wanted
   * and shown language or version. The page says so above its body.
   */
  fallback?: { href: string; missing: 'language' | 'version'; wanted: string; shown: string };
  /**
   * Search in the page's language and version: `scope` is the Pagefind filter value (`fr/v2`),
   * `prefix` the URL prefix of the combination (`/fr/v2`, `` for the defaults), without the docs base.
   */
  search?: { scope: string; prefix: string };
}

/** One switcher: the label of the current choice and a link per choice. */
export interface Switcher { current: string; options: Link[] }

/** URLs (root-relative) of the template's client bundle, built once per template version. */
export interface ClientAssets {
  /** Theme stylesheet per theme name. */
  css: Record<ThemeName, string>;
  /** The single client script (deferred, progressive). */
  js: string;
  /** The site's font stylesheet (`@font-face` rules for the families docs.json names), before the theme's. */
  fonts?: string;
  /** The site's own utilities stylesheet (Tailwind classes its pages use), after the theme's. */
  utilities?: string;
  /** The site's custom stylesheet (its repository's `style.css` and `css` files), linked last so it wins. */
  custom?: string;
}
