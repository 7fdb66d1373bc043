/**
 * Mintlify's `api` settings of docs.json that shape API reference pages, beside `api.openapi`:
 * - `api.playground.display`: `interactive` (Try it, the default), `simple` or `none` (no Try
 *   it; a page's own `playground:` frontmatter wins), or its earlier name `mode` (`show`,
 *   `simple`, `hide`), which files migrated from `mint.json` still carry; `api.playground.proxy` is accepted: Try it
 *   always sends from the reader's browser, so `proxy: true` warns that the API must allow CORS;
 * - `api.examples.languages`: which request samples a page shows, in that order (of curl,
 *   JavaScript and Python; others warn); `api.examples.autogenerate: false` shows none (a page's
 *   own `<RequestExample>` still shows); `defaults` and `prefill` are accepted (warning: the
 *   samples always carry the required parameters and the example body);
 * - `api.params.expanded`: `all` opens nested properties, `closed` (the default) leaves them shut.
 * `api.asyncapi` names the AsyncAPI document `asyncapi:` pages naming none read. `api.mdx` (the
 * server and credentials of pages written by hand with `api:` frontmatter) is accepted without a
 * warning: it changes nothing on a site without such pages, and such pages show their own
 * content here, without a playground (documented in builder docs/api-reference.md).
 */
import { z } from 'zod';
import type { ApiOperationView, ApiSample } from '@folio/site-template/shared/api-types.ts';
import { expected } from '../config/error-map.ts';

/** Sample languages as Mintlify names them → the sample made here. */
const LANGUAGES: Record<string, ApiSample['lang']> = {
  curl: 'bash', bash: 'bash', shell: 'bash', sh: 'bash',
  javascript: 'javascript', js: 'javascript', node: 'javascript', 'node.js': 'javascript', nodejs: 'javascript',
  python: 'python', py: 'python',
};

/** The schemas of the settings, placed in docs.json's `api` object. */
export const apiSettingsSchema = {
  playground: z.strictObject({
    display: z.enum(['interactive', 'simple', 'none']).optional(),
    mode: z.enum(['show', 'simple', 'hide']).optional().describe('Mintlify\'s earlier name of display: show (interactive), simple or hide (none)'),
    proxy: z.boolean().optional(),
  }, { error: expected('{ "display": "interactive" | "simple" | "none", "proxy": true | false }') }).optional()
    .describe('Try it: display interactive (default), simple or none; proxy is accepted (requests go from the browser)'),
  examples: z.strictObject({
    languages: z.array(z.string().min(1), { error: expected('a list of languages such as ["curl", "python"]') }).optional(),
    defaults: z.enum(['required', 'all']).optional(),
    prefill: z.boolean().optional(),
    autogenerate: z.boolean().optional(),
  }, { error: expected('{ "languages": [...], "defaults", "prefill", "autogenerate" }') }).optional()
    .describe('Request samples: languages (curl, javascript, python) and autogenerate'),
  params: z.strictObject({ expanded: z.enum(['all', 'closed']).optional() }).optional()
    .describe('expanded: all opens nested properties'),
  mdx: z.looseObject({}).optional().describe('Accepted for Mintlify files; pages with api: frontmatter show their own content, without a playground'),
  asyncapi: z.union([z.string().min(1), z.array(z.string().min(1)).min(1), z.looseObject({ source: z.string().min(1) })], { error: expected('a path or URL of an AsyncAPI document') }).optional()
    .describe('The AsyncAPI document asyncapi: pages naming no document read (the first of a list)'),
};

/** What the pages read of the settings (absent keys: Mintlify's defaults). */
export interface ApiSettings {
  playground?: 'interactive' | 'simple' | 'none';
  /** Sample languages shown, in order; absent: all. */
  languages?: ApiSample['lang'][];
  /** `false`: no generated samples. */
  autogenerate?: boolean;
  /** `true`: nested properties start open. */
  expanded?: boolean;
  /** `api.asyncapi`: the document `asyncapi:` pages naming none read. */
  asyncapi?: string;
}

type Parsed = {
  playground?: { display?: ApiSettings['playground']; mode?: 'show' | 'simple' | 'hide'; proxy?: boolean };
  examples?: { languages?: string[]; defaults?: string; prefill?: boolean; autogenerate?: boolean };
  params?: { expanded?: 'all' | 'closed' };
  mdx?: unknown;
  asyncapi?: string | string[] | { source: string };
};

/** The settings of a parsed `api` object and the warnings for what does not carry over. */
export function readApiSettings(api: Parsed | undefined): { settings: ApiSettings; warnings: string[] } {
  const settings: ApiSettings = {};
  const warnings: string[] = [];
  if (!api) return { settings, warnings };
  const mode = api.playground?.mode;
  const display = api.playground?.display ?? (mode === 'show' ? 'interactive' : mode === 'hide' ? 'none' : mode);
  if (display) settings.playground = display;
  if (api.playground?.proxy === true) warnings.push('docs.json: api.playground.proxy: Try it sends requests from the reader\'s browser, not through a proxy: the API must allow the site\'s origin (CORS)');
  const languages = api.examples?.languages;
  if (languages) {
    const known = languages.map((l) => LANGUAGES[l.toLowerCase()]).filter((l): l is ApiSample['lang'] => l !== undefined);
    settings.languages = known.filter((l, i) => known.indexOf(l) === i);
    const unknown = languages.filter((l) => !LANGUAGES[l.toLowerCase()]);
    if (unknown.length) warnings.push(`docs.json: api.examples.languages: no samples are made in ${unknown.join(', ')}; samples are made in curl, javascript and python`);
  }
  if (api.examples?.autogenerate === false) settings.autogenerate = false;
  if (api.examples?.defaults === 'all') warnings.push('docs.json: api.examples.defaults: samples carry the required parameters only');
  if (api.examples?.prefill === true) warnings.push('docs.json: api.examples.prefill: Try it is prefilled with the example body only, not with parameter examples');
  if (api.params?.expanded === 'all') settings.expanded = true;
  const asyncapi = api.asyncapi;
  if (asyncapi !== undefined) settings.asyncapi = typeof asyncapi === 'string' ? asyncapi : Array.isArray(asyncapi) ? asyncapi[0] : asyncapi.source;
  if (Array.isArray(asyncapi) && asyncapi.length > 1) warnings.push(`docs.json: api.asyncapi: only the first document (${asyncapi[0]}) is read`);
  return { settings, warnings };
}

/** The view as the settings show it: samples in the languages asked for, or none. */
export function applySettings(view: ApiOperationView, settings: ApiSettings): ApiOperationView {
  if (settings.autogenerate === false) return { ...view, samples: [] };
  const { languages } = settings;
  if (!languages) return view;
  return { ...view, samples: languages.flatMap((lang) => view.samples.filter((s) => s.lang === lang)) };
}
