/**
 * Reads `docs.json` (see `config-schema.ts` for why that name) into the `SiteConfig` the site
 * template renders from, with every default applied and every theme alias resolved.
 */
import { readApiSettings, type ApiSettings } from '../api/api-settings.ts';
import type { SiteConfig } from '@folio/site-template/shared/types.ts';
import { userError } from '../errors.ts';
import { configSchema } from './config-schema.ts';
import { capProblems, errorMap, formatIssues, MAX_PROBLEM_LINES } from './error-map.ts';
import { themeAliases } from './fields.ts';
import { findJsonSyntaxError } from './json-syntax-error.ts';
import type { FontSource } from '../fonts/font-families.ts';
import { applyMintlifyKeys, mintlifyThemes } from './mintlify-keys.ts';
import type { GlobalLink, NavigationEntry } from './navigation-types.ts';
import { MAX_CONFIG_DEPTH, nestingDepth } from './nesting-depth.ts';
import { resolveRefs, type ReadRepoFile } from './resolve-refs.ts';

export { MAX_CONFIG_DEPTH } from './nesting-depth.ts';

/** Most problems listed for one configuration; the rest are counted in a last line. */
export const MAX_CONFIG_ERRORS = MAX_PROBLEM_LINES;

/** Name of the configuration file at the repository root. */
export const CONFIG_FILE = 'docs.json';

/** Where the site is served; supplied by the platform, not by the customer. */
export interface SiteLocation {
  /** Absolute origin, e.g. `https://acme.docs.example`; a trailing `/` is dropped. */
  siteUrl: string;
  /** Docs base path, `''` for the root or e.g. `/docs`; a trailing `/` is dropped. */
  basePath: string;
}

/** `SiteConfig` plus the keys the builder reads but the template does not. */
export type ResolvedConfig = SiteConfig & {
  /** Explicit navigation tree (pages, groups, divisions); absent means derived from the content folders. */
  navigation?: NavigationEntry[];
  /** Where each top-level `navigation` item was written (`["tabs", 0]`), for error messages. */
  navigationPaths?: (string | number)[][];
  /** `navigation.global`: links shown on every page. */
  globalLinks?: GlobalLink[];
  /** `icons.library`: the icon set icon names refer to. */
  iconLibrary?: 'fontawesome' | 'lucide' | 'tabler';
  /** `brokenLinks` when not `warn` (the default): `error` fails a build with broken links, `off` skips the check. */
  brokenLinks?: 'error' | 'off';
  /** What the configuration asked for that is mapped or ignored, one line each, for the build log. */
  warnings: string[];
  /** Passed through unchanged (sub-keys not defined yet). */
  geo?: Record<string, unknown>;
  /** `api.openapi`: path or URL of the OpenAPI document. */
  openapi?: string;
  /** `api.playground`, `api.examples`, `api.params` as API reference pages read them (absent: defaults). */
  apiSettings?: ApiSettings;
  /** `interaction.drilldown`, passed through unchanged. */
  drilldown?: unknown;
  /** Font files given by URL (Mintlify's `fonts.source`), loaded from their host. */
  fontSources?: FontSource[];
  /** `remoteOrigins`: other origins the pages may load images, fonts, media, styles and frames from (the site's CSP). */
  remoteOrigins?: string[];
};

/** What the repository says about defaults. */
export interface ConfigOptions {
  /**
   * Whether the repository has a `docs/` folder. When it has none and `contentRoot` is not set,
   * the repository root is the content root (the layout of Mintlify repositories).
   */
  hasDocsFolder?: boolean;
}

/** A parsed configuration and the files it was read from (docs.json first, then its `$ref`s). */
export interface LoadedConfig {
  config: ResolvedConfig;
  /** Repository path → text, for hashing: a change to an included file re-renders like a docs.json change. */
  files: Map<string, string>;
}

function parseJson(jsonText: string): unknown {
  try {
    return JSON.parse(jsonText);
  } catch (cause) {
    const at = findJsonSyntaxError(jsonText);
    const message = at ? `${CONFIG_FILE}:${at.line}:${at.column}: ${at.message}` : `${CONFIG_FILE}: ${(cause as Error).message}`;
    throw userError('invalid_config', message);
  }
}

const tooDeep = () => userError('invalid_config', `${CONFIG_FILE}: Unexpected nesting deeper than ${MAX_CONFIG_DEPTH} levels; expected a flatter file`);

/**
 * Reads `docs.json` with its `$ref` includes resolved from the repository (see `resolve-refs.ts`).
 *
 * @throws BuilderError `invalid_config` (kind `user`), as {@link parseConfig}.
 */
export async function loadConfig(jsonText: string, read: ReadRepoFile, location: SiteLocation, options: ConfigOptions = {}): Promise<LoadedConfig> {
  const data = parseJson(jsonText);
  if (nestingDepth(data) > MAX_CONFIG_DEPTH) throw tooDeep();
  const { value, files } = await resolveRefs(data, CONFIG_FILE, read);
  return { config: parseConfigValue(value, location, options), files: new Map([[CONFIG_FILE, jsonText], ...files]) };
}

/**
 * Parses and validates the text of `docs.json` (a `$ref` in it is an error here: use
 * {@link loadConfig}, which reads the repository).
 *
 * @throws BuilderError `invalid_config` (kind `user`). Invalid JSON reads
 *   `docs.json:<line>:<column>: Unexpected …; expected …`; schema problems are listed one per
 *   line as `docs.json: <path>: <rule>`, every problem at once so one push fixes them all.
 */
export function parseConfig(jsonText: string, location: SiteLocation, options: ConfigOptions = {}): ResolvedConfig {
  return parseConfigValue(parseJson(jsonText), location, options);
}

/**
 * Validates a parsed `docs.json` value (its `$ref`s already resolved) and applies defaults,
 * theme aliases and Mintlify's key names.
 *
 * @throws BuilderError `invalid_config` (kind `user`).
 */
export function parseConfigValue(data: unknown, location: SiteLocation, options: ConfigOptions = {}): ResolvedConfig {
  // The schema recurses into navigation: a file nested thousands deep would overflow the stack.
  if (nestingDepth(data) > MAX_CONFIG_DEPTH) throw tooDeep();
  const result = configSchema.safeParse(data, { error: errorMap });
  if (!result.success) {
    const lines = formatIssues(result.error.issues, CONFIG_FILE);
    // A list of thousands of bad items would bury the log: the first problems, and a count.
    throw userError('invalid_config', capProblems(lines, CONFIG_FILE).join('\n'));
  }
  const c = result.data;
  const theme = (themeAliases as Record<string, SiteConfig['theme']>)[c.theme] ?? (mintlifyThemes as Record<string, SiteConfig['theme']>)[c.theme] ?? (c.theme as SiteConfig['theme']);
  const { social, links, socials: _socials, ...footer } = c.footer;
  const config: ResolvedConfig = {
    name: c.name,
    theme,
    contentRoot: options.hasDocsFolder === false && (data as Record<string, unknown>).contentRoot === undefined ? '' : c.contentRoot,
    appearance: { default: c.appearance.default, strict: c.appearance.strict },
    footer: { ...footer, ...(social ? { social } : {}), ...(links ? { links: links.map((l) => ({ title: (l.title ?? l.header)!, items: l.items })) } : {}) },
    seo: c.seo,
    assistantTrigger: c.ai?.assistant?.trigger ?? 'button',
    siteUrl: location.siteUrl.replace(/\/+$/, ''),
    basePath: location.basePath.replace(/\/+$/, ''),
    warnings: [],
  };
  if (c.colors) config.colors = c.colors;
  if (c.background) {
    const { color: _color, ...background } = c.background;
    if (Object.keys(background).length) config.background = background;
  }
  if (c.typography) config.typography = c.typography;
  if (c.navbar) {
    const { primary: _primary, ...navbar } = c.navbar;
    config.navbar = navbar;
  }
  if (c.legal) config.legal = c.legal;
  if (c.redirects) config.redirects = c.redirects;
  if (c.navigation) {
    config.navigation = c.navigation.items;
    config.navigationPaths = c.navigation.paths;
    if (c.navigation.global.length) {
      config.globalLinks = c.navigation.global;
      // Shown on every page: in the header, after navbar.links.
      config.navbar = { ...config.navbar, links: [...(config.navbar?.links ?? []), ...c.navigation.global.map(({ label, href }) => ({ label, href }))] };
    }
  }
  if (c.geo) config.geo = c.geo;
  if (c.api?.openapi !== undefined) {
    const o = c.api.openapi;
    config.openapi = typeof o === 'string' ? o : Array.isArray(o) ? o[0] : o.source;
  }
  if (c.interaction && 'drilldown' in c.interaction) config.drilldown = c.interaction.drilldown;
  if (c.icons) config.iconLibrary = c.icons.library;
  if (c.banner) config.banner = c.banner;
  if (c.brokenLinks !== 'warn') config.brokenLinks = c.brokenLinks;
  if (c.remoteOrigins?.length) config.remoteOrigins = c.remoteOrigins.map((o) => o.replace(/\/$/, ''));
  config.warnings = applyMintlifyKeys(c as unknown as Record<string, unknown>, data as Record<string, unknown>, config as never);
  const api = readApiSettings(c.api);
  if (Object.keys(api.settings).length) config.apiSettings = api.settings;
  config.warnings.push(...api.warnings);
  if (Array.isArray(c.api?.openapi) && c.api.openapi.length > 1) config.warnings.push(`docs.json: api.openapi: only the first document (${c.api.openapi[0]}) is read`);
  return config;
}
