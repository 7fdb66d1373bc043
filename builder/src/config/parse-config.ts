/**
 * Reads `docs.json` (see `config-schema.ts` for why that name) into the `SiteConfig` the site
 * template renders from, with every default applied and every theme alias resolved.
 */
import type { SiteConfig } from '@folio/site-template/shared/types.ts';
import { userError } from '../errors.ts';
import { configSchema, type NavigationEntry } from './config-schema.ts';
import { errorMap, formatIssues } from './error-map.ts';
import { findJsonSyntaxError } from './json-syntax-error.ts';

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
  /** Explicit sidebar; absent means derived from the content folders. */
  navigation?: NavigationEntry[];
  /** Passed through unchanged (sub-keys not defined yet). */
  geo?: Record<string, unknown>;
  /** `api.openapi`: path or URL of the OpenAPI document. */
  openapi?: string;
  /** `interaction.drilldown`, passed through unchanged. */
  drilldown?: unknown;
};

/** Deepest nesting of arrays and objects a `docs.json` may have (navigation groups included). */
export const MAX_CONFIG_DEPTH = 64;

/** Depth of the deepest array or object in a parsed JSON value (0 for a scalar), iteratively. */
function nestingDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    max = Math.max(max, depth + 1);
    if (max > MAX_CONFIG_DEPTH) return max;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return max;
}

/**
 * Parses and validates the text of `docs.json`.
 *
 * @throws BuilderError `invalid_config` (kind `user`). Invalid JSON reads
 *   `docs.json:<line>:<column>: Unexpected …; expected …`; schema problems are listed one per
 *   line as `docs.json: <path>: <rule>`, every problem at once so one push fixes them all.
 */
export function parseConfig(jsonText: string, location: SiteLocation): ResolvedConfig {
  let data: unknown;
  try {
    data = JSON.parse(jsonText);
  } catch (cause) {
    const at = findJsonSyntaxError(jsonText);
    const message = at ? `${CONFIG_FILE}:${at.line}:${at.column}: ${at.message}` : `${CONFIG_FILE}: ${(cause as Error).message}`;
    throw userError('invalid_config', message);
  }
  // The schema recurses into navigation groups: a file nested thousands deep would overflow the
  // stack, so depth is checked first, without recursion.
  if (nestingDepth(data) > MAX_CONFIG_DEPTH) {
    throw userError('invalid_config', `${CONFIG_FILE}: Unexpected nesting deeper than ${MAX_CONFIG_DEPTH} levels; expected a flatter file`);
  }
  const result = configSchema.safeParse(data, { error: errorMap });
  if (!result.success) throw userError('invalid_config', formatIssues(result.error.issues, CONFIG_FILE).join('\n'));
  const c = result.data;
  const config: ResolvedConfig = {
    name: c.name,
    theme: c.theme,
    contentRoot: c.contentRoot,
    appearance: c.appearance,
    footer: c.footer,
    seo: c.seo,
    assistantTrigger: c.ai?.assistant?.trigger ?? 'button',
    siteUrl: location.siteUrl.replace(/\/+$/, ''),
    basePath: location.basePath.replace(/\/+$/, ''),
  };
  if (c.colors) config.colors = c.colors;
  if (c.background) config.background = c.background;
  if (c.typography) config.typography = c.typography;
  if (c.navbar) config.navbar = c.navbar;
  if (c.legal) config.legal = c.legal;
  if (c.redirects) config.redirects = c.redirects;
  if (c.navigation) config.navigation = c.navigation;
  if (c.geo) config.geo = c.geo;
  if (c.api?.openapi !== undefined) config.openapi = c.api.openapi;
  if (c.interaction && 'drilldown' in c.interaction) config.drilldown = c.interaction.drilldown;
  return config;
}
