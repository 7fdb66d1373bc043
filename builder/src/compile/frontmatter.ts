/**
 * Page frontmatter (YAML between `---` lines at the top of a page). Known fields are checked so
 * a typo shows up as a positioned error instead of a silently ignored value:
 * `title`, `sidebarTitle`, `description` (strings), `order` (number), `rss` (boolean), `seo`
 * (the configuration's `seo` keys, overriding them for this page). Other keys are kept as-is in
 * `CompiledPage.frontmatter`.
 *
 * Mintlify's page keys read leniently (a value of another type is ignored, as Mintlify ignores
 * it): `mode` (page layout), `noindex` and `hidden` (no indexing by search engines, out of the
 * sitemap), `keywords` (extra search words, never shown), and `og:*` / `twitter:*` meta tags.
 */
import type { Root } from 'mdast';
import { parse, YAMLParseError } from 'yaml';
import type { PageSeo } from '@folio/site-template/shared/types.ts';
import { userError, type BuilderError } from '../errors.ts';
import type { PageMode } from '../types.ts';

/** The typed part of a page's frontmatter. */
export interface PageFrontmatter {
  data: Record<string, unknown>;
  title?: string;
  sidebarTitle?: string;
  description?: string;
  order?: number;
  rss: boolean;
  seo?: PageSeo;
  mode?: PageMode;
  /** Frontmatter `keywords`: words a search for the page may use, not shown on it. */
  keywords?: string[];
}

const MODES: ReadonlySet<string> = new Set(['wide', 'center', 'frame', 'custom']);
const META_KEY = /^(?:og|twitter):[a-z0-9_:.-]+$/i;

/** Mintlify's page-level keys, folded into the typed frontmatter (`out.seo` after `seo` itself). */
function readMintlifyKeys(fm: Record<string, unknown>, out: PageFrontmatter): void {
  if (typeof fm.mode === 'string' && MODES.has(fm.mode)) out.mode = fm.mode as PageMode;
  const keywords = typeof fm.keywords === 'string' ? fm.keywords.split(',') : Array.isArray(fm.keywords) ? fm.keywords : [];
  const words = keywords.filter((k): k is string => typeof k === 'string').map((k) => k.trim()).filter(Boolean);
  if (words.length) out.keywords = words;
  const metatags = Object.fromEntries(Object.entries(fm).filter(([key, value]) => META_KEY.test(key) && (typeof value === 'string' || typeof value === 'number')).map(([key, value]) => [key, String(value)]));
  // `hidden: true` is kept out of indexing by the outputs, unless docs.json says seo.indexing "all" (config/indexing.ts).
  const noindex = fm.noindex === true;
  if (!noindex && Object.keys(metatags).length === 0) return;
  const seo: PageSeo = { ...out.seo };
  if (noindex && seo.indexing === undefined) seo.indexing = 'noindex';
  if (Object.keys(metatags).length) seo.metatags = { ...metatags, ...seo.metatags };
  out.seo = seo;
}

const SEO_STRINGS = ['title', 'description', 'author', 'ogImage', 'favicon'] as const;

/** Reads and checks the frontmatter of a parsed page; throws a positioned `invalid_frontmatter` user error. */
export function readFrontmatter(tree: Root, file: string): PageFrontmatter {
  const node = tree.children[0];
  if (node?.type !== 'yaml') return { data: {}, rss: false };
  // The YAML text starts on the line after the opening `---`.
  const firstLine = (node.position?.start.line ?? 1) + 1;
  const fail = (message: string, line = node.position?.start.line, column = node.position?.start.column): BuilderError =>
    userError('invalid_frontmatter', message, { file, line, column });
  let data: unknown;
  try {
    data = parse(node.value, { prettyErrors: false }) ?? {};
  } catch (err) {
    if (err instanceof YAMLParseError) {
      const pos = err.linePos?.[0];
      throw fail(`Unexpected YAML in frontmatter: ${err.message.split('\n')[0]}`, pos ? firstLine + pos.line - 1 : undefined, pos?.col);
    }
    throw err;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw fail('Unexpected frontmatter; expected key: value pairs');
  const fm = data as Record<string, unknown>;
  const out: PageFrontmatter = { data: fm, rss: false };
  const str = (key: 'title' | 'sidebarTitle' | 'description'): void => {
    const v = fm[key];
    if (v === undefined || v === null) return;
    if (typeof v !== 'string') throw fail(`Unexpected frontmatter \`${key}\`; expected a string`);
    out[key] = v;
  };
  str('title');
  str('sidebarTitle');
  str('description');
  if (fm.order !== undefined && fm.order !== null) {
    if (typeof fm.order !== 'number' || !Number.isFinite(fm.order)) throw fail('Unexpected frontmatter `order`; expected a number');
    out.order = fm.order;
  }
  if (fm.rss !== undefined && fm.rss !== null) {
    if (typeof fm.rss !== 'boolean') throw fail('Unexpected frontmatter `rss`; expected true or false');
    out.rss = fm.rss;
  }
  if (fm.seo !== undefined && fm.seo !== null) out.seo = readSeo(fm.seo, fail);
  readMintlifyKeys(fm, out);
  return out;
}

function readSeo(value: unknown, fail: (message: string) => BuilderError): PageSeo {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('Unexpected frontmatter `seo`; expected an object');
  const seo: PageSeo = {};
  for (const [key, v] of Object.entries(value)) {
    if ((SEO_STRINGS as readonly string[]).includes(key)) {
      if (typeof v !== 'string') throw fail(`Unexpected frontmatter \`seo.${key}\`; expected a string`);
      seo[key as (typeof SEO_STRINGS)[number]] = v;
    } else if (key === 'keywords') {
      if (!Array.isArray(v) || v.some((k) => typeof k !== 'string')) throw fail('Unexpected frontmatter `seo.keywords`; expected a list of strings');
      seo.keywords = v as string[];
    } else if (key === 'indexing') {
      if (v !== 'default' && v !== 'noindex') throw fail('Unexpected frontmatter `seo.indexing`; expected `default` or `noindex`');
      seo.indexing = v;
    } else if (key === 'metatags') {
      if (typeof v !== 'object' || v === null || Array.isArray(v) || Object.values(v).some((m) => typeof m !== 'string')) {
        throw fail('Unexpected frontmatter `seo.metatags`; expected a map of strings');
      }
      seo.metatags = v as Record<string, string>;
    } else {
      throw fail(`Unexpected frontmatter key \`seo.${key}\`; expected one of title, description, keywords, author, ogImage, favicon, indexing, metatags`);
    }
  }
  return seo;
}
