/**
 * Mintlify's `docs.json` key names, accepted beside the spec's so that a Mintlify repository
 * builds unchanged. The spec's names stay canonical: each alias below is mapped onto its
 * canonical key (`logo` → `colors.logo`, `favicon` → `seo.favicon`, `navbar.primary` →
 * `navbar.primaryCta`, `footer.socials` → `footer.social`, footer column `header` → `title`,
 * `fonts` → `typography`, `background.color` → `background`), and when both are given the
 * canonical one wins with a warning. Keys without an equivalent (`contextual`, `styling`,
 * `integrations`, `background.image`, `background.decoration`) are accepted and ignored with a
 * warning, so the build log says what did not carry over.
 */
import { z } from 'zod';
import type { ThemeName } from '@folio/site-template/shared/types.ts';
import { expected } from './error-map.ts';
import { assetRef, text } from './fields.ts';
import { fontFaces, SAFE_FONT_URL, SERVED_FAMILIES, servedFamily, type FontSource, type MintlifyFonts } from '../fonts/font-families.ts';

/** Mintlify's theme names and the theme of ours each maps to (with a build warning). */
export const mintlifyThemes = {
  mint: 'larch', maple: 'larch', palm: 'cypress', willow: 'sage', linden: 'terminal',
  almond: 'birch', aspen: 'obsidian', luma: 'slate', sequoia: 'oak',
} as const satisfies Record<string, ThemeName>;

/** Mintlify's top-level keys that change nothing here yet, and why (the build warns when one is set). */
const IGNORED_TOP_LEVEL: Record<string, string> = {
  public: 'sites are public',
  search: 'search settings are not supported yet',
  errors: 'the 404 page is built in',
  thumbnails: 'social images are not generated',
  metadata: 'page timestamps are not shown yet',
  variables: 'variables are not substituted in pages yet',
  markdown: 'Markdown exports are built in',
};

/** Mintlify `api` keys that change nothing here yet (`playground`, `examples`, `params`, `mdx`, `asyncapi`: api/api-settings.ts). */
const IGNORED_API = ['url', 'spec'];

/** Mintlify social keys spelt differently from our platform slugs. */
const socialRenames: Record<string, string> = { 'hacker-news': 'hackernews', twitter: 'x' };

const lightDark = z.strictObject({ light: assetRef(), dark: assetRef().optional(), href: text().optional() });

const fontFace = z.looseObject({ family: text(), weight: z.number().optional(), source: z.url().optional(), format: z.enum(['woff', 'woff2']).optional() });

/** Schemas of the Mintlify keys, placed in `configSchema` beside the canonical ones. */
export const mintlifyKeys = {
  navbarPrimary: z
    .discriminatedUnion('type', [
      z.strictObject({ type: z.literal('button'), label: text(), href: text() }),
      z.strictObject({ type: z.literal('github'), href: z.url(), label: text().optional() }),
      z.strictObject({ type: z.literal('discord'), href: z.url(), label: text().optional() }),
    ], { error: expected('{ "type": "button", "label", "href" }, { "type": "github", "href" } or { "type": "discord", "href" }') })
    .optional()
    .describe('Mintlify alias of primaryCta'),
  socials: z.record(z.string(), z.url()).optional().describe('Mintlify alias of social'),
  openapi: z
    .union([text(), z.array(text()).min(1), z.looseObject({ source: text() })], { error: expected('a path or URL of an OpenAPI document') })
    .optional()
    .describe('Path or URL of the OpenAPI document (Mintlify\'s list and { source } forms: the first is read)'),
  /**
   * A `navbar.links` item: `{ label, href }`, or Mintlify's `{ type: "github" | "discord", href }`
   * whose label defaults to GitHub or Discord; `icon` and `iconType` are accepted, not shown yet.
   */
  navbarLink: z
    .strictObject({
      label: text().optional(),
      href: text(),
      type: z.enum(['github', 'discord']).optional().describe('Mintlify link type; the label defaults to GitHub or Discord'),
      icon: z.union([text(), z.looseObject({ name: text() })]).optional().describe('Accepted for Mintlify files; not shown yet'),
      iconType: text().optional().describe('Accepted for Mintlify files; ignored'),
    })
    .superRefine((value, ctx) => {
      if (value.label === undefined && value.type === undefined) ctx.addIssue({ code: 'custom', path: ['label'], input: undefined, message: 'Required' });
    })
    .transform(({ label, href, type, icon }) => ({
      label: label ?? (type === 'discord' ? 'Discord' : 'GitHub'), href, ...(icon !== undefined ? { icon: typeof icon === 'string' ? icon : icon.name } : {}),
    })),
  /** Mintlify's `seo` keys beyond ours: accepted, not applied yet (warning). */
  seo: {
    paths: z.array(z.looseObject({ path: text(), metatags: z.record(z.string(), z.string()) })).optional().describe('Accepted for Mintlify files; per-folder meta tags are not applied yet (warning)'),
    organization: z.looseObject({}).optional().describe('Accepted for Mintlify files; structured data is not emitted yet (warning)'),
  },
  topLevel: {
    description: text().optional().describe('Mintlify alias of seo.description'),
    logo: z.union([assetRef(), lightDark], { error: expected('a path such as /logo/light.svg or { "light", "dark", "href" }') }).optional().describe('Mintlify alias of colors.logo'),
    favicon: z.union([assetRef(), lightDark], { error: expected('a path such as /favicon.svg or { "light", "dark" }') }).optional().describe('Mintlify alias of seo.favicon'),
    icons: z.strictObject({ library: z.enum(['fontawesome', 'lucide', 'tabler']).default('fontawesome') }).optional().describe('Icon set that icon names refer to'),
    banner: z.strictObject({
      content: text().describe('Text; [label](url) links are kept'),
      dismissible: z.boolean().default(false),
      type: z.enum(['info', 'warning', 'critical']).optional().describe('Accepted for Mintlify files; the banner keeps the accent colour (warning)'),
      color: z.looseObject({}).optional().describe('Accepted for Mintlify files; the banner keeps the accent colour (warning)'),
    }).optional().describe('A notice above the header of every page'),
    fonts: z.looseObject({ family: text().optional(), weight: z.number().optional(), source: z.url().optional(), format: z.enum(['woff', 'woff2']).optional(), heading: fontFace.optional(), body: fontFace.optional() }).optional().describe('Mintlify alias of typography; served families load from the site, `source` files from their https host (docs/mintlify.md)'),
    contextual: z.looseObject({ options: z.array(z.unknown()).optional() }).optional().describe('Accepted for Mintlify files; ignored (every page has a Copy page action)'),
    styling: z.looseObject({}).optional().describe('Accepted for Mintlify files; ignored'),
    integrations: z.record(z.string(), z.unknown()).optional().describe('Accepted for Mintlify files; ignored (analytics are built in)'),
    ...Object.fromEntries(Object.keys(IGNORED_TOP_LEVEL).map((key) => [key, z.unknown().optional().describe(`Accepted for Mintlify files; ignored (warning): ${IGNORED_TOP_LEVEL[key]}`)])),
  },
};

type Raw = Record<string, unknown>;
const rec = (value: unknown): Raw | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Raw) : undefined);

/** The parts of the parsed configuration the Mintlify aliases fill in. */
export interface MintlifyTarget {
  theme: string;
  colors?: { primary?: string; light?: string; dark?: string; logo?: { light?: string; dark?: string; href: string } };
  background?: { light?: string; dark?: string };
  typography?: { fontFamily?: string; headingFont?: string; bodyFont?: string };
  /** Font files given by URL (`fonts.source`); fonts/site-fonts.ts writes their `@font-face` rules. */
  fontSources?: FontSource[];
  navbar?: { primaryCta?: { label: string; href: string; style: 'solid' | 'outline' | 'ghost'; external: boolean } };
  footer: { style: 'none' | 'page' | 'columns'; social?: Record<string, string>; links?: { title: string; items: { label: string; href: string }[] }[] };
  seo: { description?: string; favicon?: string };
}

/**
 * Maps the Mintlify aliases of `parsed` (the schema's output) onto the canonical keys of
 * `target`, in place, and returns the warnings to show in the build log. `raw` is the input
 * JSON, read to tell an omitted key from a default.
 */
export function applyMintlifyKeys(parsed: Raw, raw: Raw, target: MintlifyTarget): string[] {
  const warnings: string[] = [];
  const both = (alias: string, canonical: string) => warnings.push(`docs.json: ${alias}: ignored because ${canonical} is set; remove one of them`);
  const ignored = (key: string, why: string) => warnings.push(`docs.json: ${key}: ignored; ${why}`);

  const rawTheme = raw.theme;
  if (typeof rawTheme === 'string' && Object.hasOwn(mintlifyThemes, rawTheme) && rawTheme !== 'maple') {
    warnings.push(`docs.json: theme: "${rawTheme}" is a Mintlify theme; using the nearest theme, "${target.theme}"`);
  }
  const p = parsed as Raw & {
    logo?: string | { light: string; dark?: string; href?: string };
    favicon?: string | { light: string; dark?: string };
    description?: string;
    fonts?: MintlifyFonts;
  };
  if (p.logo !== undefined) {
    const logo = typeof p.logo === 'string' ? { light: p.logo, dark: p.logo, href: '/' } : { light: p.logo.light, dark: p.logo.dark ?? p.logo.light, href: p.logo.href ?? '/' };
    if (target.colors?.logo) both('logo', 'colors.logo');
    else target.colors = { ...target.colors, logo };
  }
  if (p.favicon !== undefined) {
    if (target.seo.favicon) both('favicon', 'seo.favicon');
    else target.seo.favicon = typeof p.favicon === 'string' ? p.favicon : p.favicon.light;
  }
  if (p.description !== undefined) {
    if (target.seo.description) both('description', 'seo.description');
    else target.seo.description = p.description;
  }
  const navbar = rec(parsed.navbar) as { primary?: { type: 'button' | 'github' | 'discord'; label?: string; href: string }; primaryCta?: unknown } | undefined;
  if (navbar?.primary) {
    if (navbar.primaryCta) both('navbar.primary', 'navbar.primaryCta');
    else {
      const { type, label, href } = navbar.primary;
      target.navbar = { ...target.navbar, primaryCta: { label: label ?? (type === 'github' ? 'GitHub' : type === 'discord' ? 'Discord' : href), href, style: 'solid', external: /^https?:\/\//i.test(href) } };
    }
  }
  const footer = rec(parsed.footer) as { socials?: Record<string, string>; social?: unknown; links?: { title?: string; header?: string; items: { label: string; href: string }[] }[] } | undefined;
  if (footer?.socials) {
    if (footer.social) both('footer.socials', 'footer.social');
    else target.footer.social = Object.fromEntries(Object.entries(footer.socials).map(([slug, url]) => [socialRenames[slug] ?? slug, url]));
  }
  if (footer?.links) target.footer.links = footer.links.map((column) => ({ title: (column.title ?? column.header)!, items: column.items }));
  // Mintlify shows its footer whenever it has content; ours defaults to none.
  if (rec(raw.footer) && rec(raw.footer)!.style === undefined && (footer?.socials || footer?.links?.some((c) => c.header !== undefined))) {
    target.footer.style = target.footer.links?.length ? 'columns' : 'page';
  }
  const background = rec(parsed.background) as { color?: { light?: string; dark?: string } } | undefined;
  if (background?.color) {
    const current = target.background ?? {};
    if (current.light || current.dark) both('background.color', 'background.light or background.dark');
    else target.background = Object.fromEntries(Object.entries(background.color).filter(([k, v]) => (k === 'light' || k === 'dark') && v !== undefined));
  }
  for (const key of ['image', 'decoration']) if (rec(raw.background)?.[key] !== undefined) ignored(`background.${key}`, 'not supported yet (background accepts light and dark colours or gradients)');
  if (p.fonts) {
    const t = { ...target.typography };
    if (t.fontFamily || t.headingFont || t.bodyFont) both('fonts', 'typography');
    else {
      const faces = fontFaces(p.fonts);
      for (const f of faces) if (f.role === 'family') t.fontFamily = f.family; else if (f.role === 'heading') t.headingFont = f.family; else t.bodyFont = f.family;
      target.typography = t;
      const sources: FontSource[] = [];
      for (const f of faces) {
        if (f.source !== undefined && !SAFE_FONT_URL.test(f.source)) ignored(`${f.key}.source`, 'only https URLs without quotes, spaces or brackets load');
        else if (f.source !== undefined) sources.push({ family: f.family, url: f.source, ...(f.weight ? { weight: f.weight } : {}), ...(f.format ? { format: f.format } : {}) });
        else if (!servedFamily(f.family)) warnings.push(`docs.json: ${f.key}.family: "${f.family}" is not served from the site; it applies where the reader has it installed, else the theme's fonts. Served families: ${SERVED_FAMILIES.join(', ')}; or give its file with ${f.key}.source`);
      }
      if (sources.length) target.fontSources = sources;
    }
  }
  for (const [key, why] of Object.entries(IGNORED_TOP_LEVEL)) if (raw[key] !== undefined) ignored(key, why);
  for (const key of IGNORED_API) if (rec(raw.api)?.[key] !== undefined) ignored(`api.${key}`, 'not supported yet (API pages are generated from api.openapi)');
  for (const key of ['paths', 'organization']) if (rec(raw.seo)?.[key] !== undefined) ignored(`seo.${key}`, key === 'paths' ? 'per-folder meta tags are not applied yet; seo.metatags apply to every page' : 'structured data is not emitted yet');
  if (rec(raw.appearance)?.layout !== undefined) ignored('appearance.layout', 'the theme sets the layout');
  for (const key of ['type', 'color']) if (rec(raw.banner)?.[key] !== undefined) ignored(`banner.${key}`, 'the banner uses the accent colour');
  warnings.push(...navigationWarnings(raw.navigation));
  if (parsed.contextual !== undefined) ignored('contextual', 'every page has a Copy page action and a Markdown export');
  if (parsed.styling !== undefined) ignored('styling', 'not supported');
  for (const name of Object.keys(rec(parsed.integrations) ?? {})) ignored(`integrations.${name}`, 'third-party integrations are not supported; analytics are built in');
  return warnings;
}

/** Navigation keys Mintlify defines that change nothing here yet, and why. */
const IGNORED_NAVIGATION: Record<string, string> = {
  directory: 'directory listings on group root pages are not rendered yet',
  align: 'tabs are laid out in order',
  graphql: 'GraphQL reference pages are not generated',
  sdk: 'SDK reference pages are not generated',
  banner: 'the site-wide banner applies to every language',
  footer: 'the site-wide footer applies to every language',
  navbar: 'the site-wide navbar applies to every language',
  global: 'only the top-level navigation.global is shown',
};

/**
 * One warning per kind of ignored navigation key: the first place it is written and how many
 * others there are, so a key repeated in every language reads as one line, not dozens.
 */
export function navigationWarnings(navigation: unknown): string[] {
  const found = new Map<string, { first: string; more: number }>();
  const visit = (value: unknown, path: string, top: boolean) => {
    if (Array.isArray(value)) { value.forEach((v, i) => visit(v, `${path}[${i}]`, false)); return; }
    const obj = rec(value);
    if (!obj) return;
    for (const [key, child] of Object.entries(obj)) {
      const here = `${path}.${key}`;
      // navigation.global is ours; a directory of "none" is the default.
      const ignoredHere = Object.hasOwn(IGNORED_NAVIGATION, key) && !(top && key === 'global') && !(key === 'directory' && child === 'none');
      if (ignoredHere) {
        const seen = found.get(key);
        if (seen) seen.more++;
        else found.set(key, { first: here, more: 0 });
        continue;
      }
      if (key !== 'global') visit(child, here, false);
    }
  };
  visit(navigation, 'navigation', true);
  const lines = [...found].map(([key, { first, more }]) => `docs.json: ${first}: ignored; ${IGNORED_NAVIGATION[key]}${more ? ` (and ${more} more place${more > 1 ? 's' : ''})` : ''}`);
  return [...lines, ...emptyEntries(navigation)];
}

const DIVISION_KEYS = ['tab', 'anchor', 'dropdown', 'product', 'item'];
const CHILD_KEYS = ['languages', 'versions', 'products', 'dropdowns', 'tabs', 'menu', 'anchors', 'groups', 'pages'];

/**
 * Divisions (other than languages and versions) with no pages, children or `href`, and groups
 * with no pages: Mintlify accepts them and shows nothing (a group: its title). One warning per
 * kind, naming the first and counting the others.
 */
function emptyEntries(navigation: unknown): string[] {
  const found = new Map<string, { first: string; more: number }>();
  const visit = (value: unknown, path: string) => {
    if (Array.isArray(value)) { value.forEach((v, i) => visit(v, `${path}[${i}]`)); return; }
    const obj = rec(value);
    if (!obj) return;
    const kind = DIVISION_KEYS.find((k) => typeof obj[k] === 'string') ?? (typeof obj.group === 'string' ? 'group' : undefined);
    if (kind && obj.href === undefined && obj.openapi === undefined && obj.asyncapi === undefined && !CHILD_KEYS.some((k) => Array.isArray(obj[k]) && (obj[k] as unknown[]).length > 0)) {
      const seen = found.get(kind);
      if (seen) seen.more++;
      else found.set(kind, { first: path, more: 0 });
    }
    for (const key of CHILD_KEYS) if (obj[key] !== undefined) visit(obj[key], `${path}.${key}`);
  };
  visit(navigation, 'navigation');
  return [...found].map(([kind, { first, more }]) => `docs.json: ${first}: ignored; ${kind === 'group' ? 'a group without pages shows only its title' : `a ${kind === 'item' ? 'menu item' : kind} without pages or href shows nothing`}${more ? ` (and ${more} more)` : ''}`);
}
