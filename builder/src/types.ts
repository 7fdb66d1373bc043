/**
 * Shapes shared by the builder's steps. Steps take inputs and return results; only the
 * entry points (CLI, worker) report status and upload.
 */
import type { PageSeo, TocEntry } from '@folio/site-template/shared/types.ts';

/** One `<Update>` entry of a page, the source of its RSS items. */
export interface PageUpdate {
  /** Anchor id on the page. */
  id: string;
  label: string;
  /** Feed item description: the `rss` prop when given, else the update's text. */
  description: string;
  /** ISO date when the update names one. */
  date?: string;
  /** Rendered HTML of the update body (for the feed's content). */
  html: string;
}

/** A link as a page's source writes it, and where (1-based). */
export interface PageLink { href: string; line: number; column: number }

/** Page layouts Mintlify's `mode` frontmatter names (`default` and unknown values are left out). */
export type PageMode = 'wide' | 'center' | 'frame' | 'custom';

/** The cached, per-page result of compiling one MDX file. Keyed by blob id + versions. */
export interface CompiledPage {
  /** Repository path of the source, e.g. `docs/guides/install.mdx`. */
  sourcePath: string;
  /** Clean URL path, e.g. `/guides/install` (`/` for `index.mdx` at the content root). */
  urlPath: string;
  title: string;
  sidebarTitle?: string;
  /** Frontmatter `icon`: shown before the page's sidebar label (an icon name, image path or emoji). */
  icon?: string;
  /** Frontmatter `mode`: the page's layout (`wide`, `center`, `frame`, `custom`; absent: the default). */
  mode?: PageMode;
  /** Frontmatter `order` for the derived sidebar. */
  order?: number;
  /** Frontmatter `hidden: true` (Mintlify's): built and reachable by its URL, left out of the sidebar, search and the sitemap. */
  hidden?: true;
  /** Frontmatter `url` (Mintlify's external link): the page's sidebar entry links there. */
  url?: string;
  description?: string;
  /** Whole parsed frontmatter (YAML). */
  frontmatter: Record<string, unknown>;
  /** Body HTML for browsers: humans content marked with data-visibility, agents content hidden. */
  bodyHtml: string;
  /** Raw Markdown export: agents content included, humans content stripped. */
  markdown: string;
  toc: TocEntry[];
  updates: PageUpdate[];
  /** Frontmatter `rss: true` shows the subscribe button. */
  rss: boolean;
  seo?: PageSeo;
  /** Plain text for search and the pages API (humans view). */
  searchText: string;
  /** Links the page's own source writes (absent when none), for the link check. */
  links?: PageLink[];
  /** Source of the client module hydrating the page's hook components (compile/islands.ts); absent without any. */
  islands?: string;
  /** Set on API reference pages generated from `api.openapi`: `"GET /users"` and the operation's first tag. */
  api?: { operation: string; tag: string; document?: string };
  /**
   * Set on MDX pages whose frontmatter names an operation (`openapi: GET /users`): the document
   * and the operation. A page generated from a document for the same operation is left out.
   */
  apiOperation?: { document: string; operation: string };
  /** What the page holds that Mintlify renders without complaint but is not what it seems (absent when nothing): warned about site-wide. */
  notes?: PageNote[];
}

/**
 * Something a page writes that builds but deserves a warning: a component nobody defines
 * (`component`, its content shown in a plain container) or an `{expression}` in prose naming
 * something undefined (`expression`, shown as written).
 */
export interface PageNote {
  kind: 'component' | 'expression';
  /** The component's name (`Critical`) or the expression as written (`kickoff_id`). */
  name: string;
  line?: number;
  column?: number;
  /** A built-in component of a close name (`ParamField` for `Paramfield`). */
  suggestion?: string;
}

/** A page that failed to compile: a user error with a position. */
export interface PageFailure {
  sourcePath: string;
  message: string;
  line?: number;
  column?: number;
}

/** Step timings in milliseconds, reported with every build. */
export type StepTimings = Partial<Record<'clone' | 'plan' | 'compile' | 'render' | 'exports' | 'index' | 'publish' | 'total', number>>;

/** What a build reports. */
export interface BuildResult {
  commit?: string;
  pagesTotal: number;
  pagesSuccess: number;
  pagesFailed: number;
  errors: PageFailure[];
  /**
   * What the author should know but did not stop the build, one line each: configuration keys
   * mapped or ignored (Mintlify names, themes), then broken links and anchors
   * (`file:line:column: message`).
   */
  warnings: string[];
  /** Links checked by this build (an incremental build re-checks only those that can have changed). */
  linksChecked: number;
  /** Number of MDX files actually compiled (cache misses). */
  compiled: number;
  /** Of the pages compiled, those that took the static path (no JavaScript of their own, so no Vite). */
  staticPages: number;
  /** API reference pages generated from `api.openapi` (0 when the document is unchanged); absent without one. */
  apiPagesGenerated?: number;
  /** Pages this sync found renamed (URL paths): each old URL now redirects to the new one. Absent when none. */
  moved?: Array<{ from: string; to: string }>;
  uploaded: number;
  deleted: number;
  timings: StepTimings;
}
