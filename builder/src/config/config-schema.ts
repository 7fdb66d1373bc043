/**
 * The schema of `docs.json`, the project configuration file at the repository root (spec 2.11).
 * `docs.json` is the name the best-established hosted docs platforms use, so customers moving
 * from one of them keep their file name and most of their keys.
 *
 * Strictness: the top level accepts (and ignores) unknown keys, as the spec says, and so do the
 * sections the spec does not mark "no extra keys" (`colors`, `navbar`, `footer`, `api`, …), which
 * keeps files shared with other tools valid. Sections marked "no extra keys" (`appearance`,
 * `typography`, `navbar.controls`, `legal`, `seo`) and every `{ label, href }` link reject
 * unknown keys with a message listing the accepted ones. `geo` is an object whose sub-keys the
 * spec does not define yet: any object is accepted and passed through unchanged.
 *
 * Defaults are written with `.default()` so that the JSON Schema shows them to editors.
 */
import { apiSettingsSchema } from '../api/api-settings.ts';
import { z } from 'zod';
import { expected } from './error-map.ts';
import {
  always, assetRef, background, controlNames, hexColor, isSafeRelativePath, link, socialSlugs, text, themeAliases, themeNames, unique,
} from './fields.ts';
import { mintlifyKeys, mintlifyThemes } from './mintlify-keys.ts';
import { navigationSchema } from './navigation-schema.ts';

export type { NavigationEntry } from './navigation-types.ts';

/** The `$schema` URL that gives editors autocomplete for `docs.json`. */
export const CONFIG_SCHEMA_URL = 'https://folio.dev/docs.schema.json';

// `maple` is both a deprecated alias of ours and a Mintlify theme (both read as larch): listed once.
const themeValues = [...new Set([...themeNames, ...Object.keys(themeAliases), ...Object.keys(mintlifyThemes)])] as [string, ...string[]];

const theme = z
  .enum(themeValues, { error: expected(`one of ${themeNames.join(', ')}`) })
  .default('larch')
  .describe(
    `Site theme: ${themeNames.join(', ')}. Deprecated aliases: maple (larch), classic (cedar), modern (ember), minimal (sage). ` +
      `Mintlify theme names map to the nearest theme with a warning: ${Object.entries(mintlifyThemes).map(([k, v]) => `${k} (${v})`).join(', ')}`,
  );

const contentRoot = z
  .string()
  .regex(/\/$/, { error: expected('a folder path ending with /') })
  .refine(isSafeRelativePath, { error: expected('a relative path inside the repository, without ..') })
  .default('docs/')
  // `./docs/` and `docs/` name the same folder; `./` alone is the repository root, written ''.
  .transform((value) => value.replace(/^(\.\/)+/, ''))
  .describe('Repository folder holding the MDX files; ends with /. Default docs/');

const placement = z.enum(['auto', 'header', 'sidebar']).default('auto');

const cta = z
  .object({
    label: text(),
    href: text(),
    style: z.enum(['solid', 'outline', 'ghost']).default('solid'),
    color: text().optional().describe('Any CSS colour'),
    textColor: text().optional().describe('Any CSS colour'),
    external: z.boolean().optional().describe('Open in a new tab. Default: true for http(s) targets, false for docs paths'),
  })
  .transform(({ external, ...rest }) => ({ ...rest, external: external ?? /^https?:\/\//i.test(rest.href) }));

const socialShape = Object.fromEntries(socialSlugs.map((slug) => [slug, z.url().optional()])) as Record<(typeof socialSlugs)[number], z.ZodOptional<z.ZodURL>>;

/** The zod schema of `docs.json`. Parse output is close to `SiteConfig`; see `parseConfig`. */
export const configSchema = z.object({
  $schema: z.url().optional().describe(`Schema URL for editor autocomplete: ${CONFIG_SCHEMA_URL}`),
  name: text().describe('Project display name (tab title, social metadata)'),
  theme,
  contentRoot,
  appearance: z
    .strictObject({
      default: z.enum(['light', 'dark', 'system']).default('system'),
      strict: z.boolean().default(false).describe('Hide the theme toggle'),
      layout: z.string().optional().describe('Accepted for Mintlify files (its earlier sidenav / topnav layouts); ignored with a warning, the theme sets the layout'),
    })
    .prefault({}),
  colors: z
    .object({
      primary: hexColor().optional(),
      light: hexColor().optional(),
      dark: hexColor().optional(),
      logo: z
        .object({
          light: assetRef().optional(),
          dark: assetRef().optional(),
          href: text().default('/').describe('Logo click target; root-relative paths resolve against the docs base. Default /'),
        })
        .optional(),
    })
    .optional(),
  background: z
    .object({
      light: background().optional(),
      dark: background().optional(),
      color: z.object({ light: background().optional(), dark: background().optional() }).optional().describe('Mintlify alias of light and dark'),
    })
    .optional(),
  typography: z
    .strictObject({
      fontFamily: text().optional().describe('Body font stack (default for the other two)'),
      headingFont: text().optional().describe('h1-h4; defaults to fontFamily'),
      bodyFont: text().optional().describe('Defaults to fontFamily'),
    })
    .optional(),
  navbar: z
    .object({
      links: z.array(mintlifyKeys.navbarLink).optional(),
      primaryCta: cta.optional(),
      primary: mintlifyKeys.navbarPrimary,
      controls: z
        .strictObject({
          ...Object.fromEntries(controlNames.map((name) => [name, placement.optional()])),
          order: z.array(z.enum(controlNames)).superRefine(unique('each control at most once'), always).optional(),
        } as Record<(typeof controlNames)[number], z.ZodOptional<typeof placement>> & { order: z.ZodOptional<z.ZodArray<z.ZodEnum<{ [K in (typeof controlNames)[number]]: K }>>> })
        .optional(),
    })
    .optional(),
  legal: z
    .strictObject({
      copyright: text().optional().describe('{year} expands to the current year'),
      privacyUrl: text().optional(),
      termsUrl: text().optional(),
      cookieUrl: text().optional(),
      links: z.array(link()).optional(),
    })
    .optional(),
  footer: z
    .object({
      style: z.enum(['none', 'page', 'columns']).default('none'),
      logo: z.boolean().optional().describe('Show the navbar logo in the footer'),
      social: z.object(socialShape).catchall(z.url()).optional().describe('Platform slug to URL'),
      socials: mintlifyKeys.socials,
      links: z
        .array(
          z.object({ title: text().optional(), header: text().optional().describe('Mintlify alias of title'), items: z.array(link()) }).superRefine((column, ctx) => {
            if (column.title === undefined && column.header === undefined) ctx.addIssue({ code: 'custom', path: ['title'], input: undefined, message: 'Required' });
          }),
        )
        .optional()
        .describe('Columns of the columns style'),
      width: z.enum(['reading', 'content', 'full']).optional().describe('Omitted: follows the theme, then reading'),
    })
    .prefault({}),
  seo: z
    .strictObject({
      title: text().optional(),
      description: text().optional(),
      keywords: z.array(text()).optional(),
      author: text().optional(),
      ogImage: assetRef().optional(),
      favicon: assetRef().optional().describe('Root-relative path of a file under public/, e.g. /favicon.svg'),
      indexing: z
        .enum(['default', 'noindex', 'navigable', 'all'])
        .default('default')
        .transform((value) => (value === 'noindex' || value === 'all' ? value : 'default'))
        .describe('default (Mintlify\'s navigable), noindex, or all: hidden pages are indexed too'),
      metatags: z.record(z.string(), z.string()).optional().describe('Appended to every page'),
      ...mintlifyKeys.seo,
    })
    .prefault({}),
  geo: z.looseObject({}).optional().describe('Structured-data and AI-crawler controls; passed through unchanged'),
  redirects: z
    .array(
      z.object({
        // Mintlify reads a source without its leading / as a site path too (`old` is `/old`).
        source: text()
          .regex(/^(?![a-z][a-z0-9+.-]*:)/i, { error: expected('a path of this site such as /old-page') })
          .transform((source) => (source.startsWith('/') ? source : `/${source}`)),
        destination: text().describe('A docs path or an absolute URL'),
        permanent: z.boolean().default(false).describe('308 when true, 307 otherwise'),
      }),
    )
    .superRefine(unique('each source at most once', 'source'), always)
    .optional(),
  api: z.object({ openapi: mintlifyKeys.openapi, ...apiSettingsSchema }).optional(),
  interaction: z.object({ drilldown: z.unknown().optional() }).optional(),
  ai: z
    .object({
      assistant: z
        .object({ trigger: z.enum(['button', 'none']).default('button').describe('button shows the assistant control; none hides it') })
        .optional(),
    })
    .optional(),
  navigation: navigationSchema.optional(),
  remoteOrigins: z
    .array(z.string().regex(/^https?:\/\/[^/?#@\s]+\/?$/i, { error: expected('an origin such as https://cdn.example.com (scheme and host, no path)') }))
    .max(50)
    .optional()
    .describe(
      'Other origins the pages may load images, fonts, media, stylesheets and frames from (the site\'s Content-Security-Policy), ' +
        'e.g. ["https://cdn.example.com", "https://www.youtube-nocookie.com"]. The site\'s own files, and the hosts of an absolute logo or favicon URL, need no entry. Default none',
    ),
  brokenLinks: z
    .enum(['warn', 'error', 'off'], { error: expected('one of warn, error, off') })
    .default('warn')
    .describe(
      'What a broken internal link or missing anchor does: warn lists it with the deployment (file:line:column) and publishes; ' +
        'error fails the deployment, keeping the live site; off skips the check. Default warn',
    ),
  ...mintlifyKeys.topLevel,
});

/** The parsed (defaults applied) shape of `docs.json`. */
export type ParsedConfig = z.output<typeof configSchema>;
