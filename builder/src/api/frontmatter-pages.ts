/**
 * MDX pages that name an API operation in their frontmatter, Mintlify's way of writing an API
 * reference: `openapi: GET /users` (or `openapi: openapi.json GET /users`, `openapi: webhook
 * orderUpdated`), `openapi-schema: Pet` and `asyncapi: /asyncapi.yaml chat` (an AsyncAPI
 * channel: address, servers, operations, messages).
 *
 * Runs in the build process on each compiled page, before it is cached: the page's own body
 * stays (after the endpoint and description, before the parameters; its top-level
 * `<RequestExample>`, `<ResponseExample>` and `<Panel>` in the side column), and the operation's
 * generated view (parameters, bodies, responses, samples, Try it) is rendered around it, into its
 * HTML, its Markdown export, its table of contents and its search text. The document's blob is
 * recorded with the page's imports, so editing the document compiles the page again.
 *
 * A page with side-column blocks and no API key gets the same two-column layout.
 */
import { renderApiChannel, renderApiOperation, renderApiSchema, renderWithAside } from '@folio/site-template';
import type { ApiOperationView } from '@folio/site-template/shared/api-types.ts';
import { suggestName } from '../compile/component-check.ts';
import { BuilderError } from '../errors.ts';
import type { CompiledPage, PageFailure } from '../types.ts';
import { apiMarkdown, channelMarkdown, schemaMarkdown } from './api-markdown.ts';
import { MAX_API_PAGE_OUTPUT, operationSearchText, operationToc } from './api-pages.ts';
import { applySettings, type ApiSettings } from './api-settings.ts';
import { operationLabel, operationLabels, operationViewOf, schemaLabels, schemaViewOf, type OperationRef } from './api-view.ts';
import { channelLabels, channelViewOf } from './channel-view.ts';
import { readNamedFrontmatter, readOpenapiFrontmatter } from './frontmatter-ref.ts';
import { splitAside } from './page-aside.ts';
import { ApiPageTooLarge } from './schema-fields.ts';
import { SpecCatalog, type CatalogSpec, type SpecCatalogOptions } from './spec-catalog.ts';

/** The frontmatter keys read here. */
export const API_FRONTMATTER_KEYS = ['openapi', 'openapi-schema', 'asyncapi'] as const;

/** Operations an error lists at most. */
const LISTED = 8;

/** What {@link FrontmatterApi.apply} makes of one page: the page (or its failure) and the documents it read. */
export interface FrontmatterResult { result: CompiledPage | PageFailure; deps: Record<string, string> }

/** What the pages are made from. */
export interface FrontmatterApiOptions extends Pick<SpecCatalogOptions, 'snapshot' | 'contentRoot' | 'fetchUrl'> {
  /** `api.openapi`, `api.asyncapi` of docs.json, as written. */
  openapi?: string;
  asyncapi?: string;
  /** Documents navigation `openapi` and `asyncapi` keys name. */
  navigation?: { openapi: readonly string[]; asyncapi: readonly string[] };
  /** docs.json's `api` settings (Try it, samples, expanded properties). */
  settings?: ApiSettings;
  /** docs.json's repository path: every page here depends on it (`api.openapi` and the `api` settings decide). */
  configPath?: string;
}

/** `key: value` line of the frontmatter, 1-based, for the page error's position. */
function keyLine(source: string, key: string): number | undefined {
  const lines = source.split('\n', 200);
  if (lines[0]?.trim() !== '---') return undefined;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === '---') return undefined;
    if (lines[i].startsWith(`${key}:`)) return i + 1;
  }
  return undefined;
}

/** `a, b, c and 12 more` of a list, the closest to `wanted` first. */
function listed(known: string[], wanted: string): string {
  const closest = suggestName(wanted, known);
  const order = closest ? [closest, ...known.filter((k) => k !== closest)] : known;
  const head = order.slice(0, LISTED).join(', ');
  return order.length > LISTED ? `${head} and ${order.length - LISTED} more` : head;
}

/** Whether two operations are the same but for the method's case and a trailing slash of the path. */
const sameOperation = (a: string, b: string) => a.toLowerCase().replace(/(.)\/$/, '$1') === b.toLowerCase().replace(/(.)\/$/, '$1');

/** A page's first paragraph of description (plain text), at most 300 characters. */
const summaryOf = (text: string | undefined) => text?.split(/\n\s*\n/)[0].replace(/\s+/g, ' ').slice(0, 300);

/**
 * The generated Markdown (`# title`, endpoint, description, then its `##` sections) with the
 * page's own Markdown (without its `# title` line) before the sections, as the HTML places it.
 */
function joinedMarkdown(page: CompiledPage, generated: string): string {
  const own = page.markdown.replace(/^# [^\n]*\n+/, '').trim();
  if (!own) return generated;
  const at = generated.search(/^## /m);
  return at < 0 ? `${generated.trimEnd()}\n\n${own}\n` : `${generated.slice(0, at)}${own}\n\n${generated.slice(at)}`;
}

/** See the module comment. One per build (or dev session): documents are read once. */
export class FrontmatterApi {
  private readonly catalogs = new Map<string, SpecCatalog>();
  private readonly opts: FrontmatterApiOptions;

  constructor(opts: FrontmatterApiOptions) {
    this.opts = opts;
  }

  /** The OpenAPI documents (`openapi:`, `openapi-schema:` pages) or the AsyncAPI ones (`asyncapi:`). */
  private catalog(key: string): SpecCatalog {
    const kind = key === 'asyncapi' ? 'asyncapi' : 'openapi';
    let found = this.catalogs.get(kind);
    if (!found) {
      const { snapshot, contentRoot, fetchUrl } = this.opts;
      const declared = this.opts[kind];
      found = new SpecCatalog({
        snapshot, contentRoot, kind, key: kind, navigation: this.opts.navigation?.[kind] ?? [],
        ...(declared ? { declared } : {}), ...(fetchUrl ? { fetchUrl } : {}),
      });
      this.catalogs.set(kind, found);
    }
    return found;
  }

  /** The page with its API view (see the module comment), or its failure; other pages as they are. */
  async apply(result: CompiledPage | PageFailure, source: string): Promise<FrontmatterResult> {
    if (!('bodyHtml' in result)) return { result, deps: {} };
    const page = result;
    const key = API_FRONTMATTER_KEYS.find((k) => page.frontmatter[k] !== undefined);
    const fail = (k: string, message: string): FrontmatterResult => ({
      result: { sourcePath: page.sourcePath, message, ...(keyLine(source, k) ? { line: keyLine(source, k), column: 1 } : {}) }, deps: {},
    });
    if (!key) {
      const { main, aside } = splitAside(page.bodyHtml);
      return { result: aside ? { ...page, bodyHtml: renderWithAside(main, aside) } : page, deps: {} };
    }
    // docs.json decides too (`api.openapi` for a page naming no document, the `api` settings for all).
    const { configPath } = this.opts;
    const configBlob = configPath === undefined ? undefined : this.opts.snapshot.files.get(configPath);
    const withConfig = (made: FrontmatterResult): FrontmatterResult => (configBlob === undefined ? made : { ...made, deps: { [configPath!]: configBlob, ...made.deps } });
    try {
      const made = key === 'openapi' ? this.operationPage(page, fail) : key === 'openapi-schema' ? this.schemaPage(page, fail) : this.channelPage(page, fail);
      return withConfig(await made);
    } catch (err) {
      if (err instanceof BuilderError && err.kind === 'user') return withConfig({ ...fail(key, err.message), deps: this.depsOfFailure(page, key) });
      if (err instanceof ApiPageTooLarge) return fail(key, `${key}: Unexpected size of the API reference page: ${err.message}`);
      throw err;
    }
  }

  /** A page that failed on its document still depends on it: fixing the document compiles it again. */
  private depsOfFailure(page: CompiledPage, key: string): Record<string, string> {
    const value = page.frontmatter[key];
    const file = typeof value === 'string' && value.trim().split(/\s+/).length >= (key === 'openapi' ? 3 : 2) ? value.trim().split(/\s+/)[0] : undefined;
    const path = file === undefined ? undefined : this.catalog(key).resolve(file, page.sourcePath);
    const blob = path === undefined ? undefined : this.opts.snapshot.files.get(path);
    return path !== undefined && blob !== undefined ? { [path]: blob } : {};
  }

  /** The document a page names, or the first of the unnamed ones that has `has`; the deps the page takes. */
  private async specFor(key: string, page: string, file: string | undefined, has: (spec: CatalogSpec) => boolean): Promise<{ spec?: CatalogSpec; searched: CatalogSpec[]; deps: Record<string, string> }> {
    const catalog = this.catalog(key);
    if (file !== undefined) {
      const spec = await catalog.named(file, page);
      if (has(spec)) return { spec, searched: [spec], deps: spec.deps };
      // A copy of a document that lags behind (a translation's) : the operation is taken from the
      // repository's first document by path that has it, as the page meant the same API.
      for (const name of await catalog.discovered()) {
        // A document found by searching that cannot be read is passed over: the page did not name it.
        const other = await catalog.named(name).catch(() => undefined);
        if (other && has(other)) return { spec: other, searched: [spec], deps: { ...spec.deps, ...other.deps } };
      }
      return { searched: [spec], deps: spec.deps };
    }
    const deps: Record<string, string> = {};
    const searched: CatalogSpec[] = [];
    const declared = this.opts[key === 'asyncapi' ? 'asyncapi' : 'openapi'] !== undefined;
    for (const name of await catalog.unnamed()) {
      // `api.openapi` must be readable; a document found by searching that is not is passed over.
      const spec = declared ? await catalog.named(name) : await catalog.named(name).catch(() => undefined);
      if (!spec) continue;
      searched.push(spec);
      if (has(spec)) return { spec, searched, deps: { ...deps, ...spec.deps } };
    }
    // Not found: any document added or changed may hold it.
    return { searched, deps: Object.assign(deps, ...searched.map((s) => s.deps)) };
  }

  private async operationPage(page: CompiledPage, fail: (k: string, m: string) => FrontmatterResult): Promise<FrontmatterResult> {
    const read = readOpenapiFrontmatter(page.frontmatter.openapi);
    if ('problem' in read) return fail('openapi', `openapi: ${read.problem}`);
    const { ref } = read;
    const label = operationLabel(ref);
    // The document's own spelling wins; else the same operation written with or without a trailing slash.
    const match = (s: CatalogSpec) => {
      const labels = operationLabels(s.doc);
      return labels.find((l) => l.toLowerCase() === label.toLowerCase()) ?? labels.find((l) => sameOperation(l, label));
    };
    const has = (s: CatalogSpec) => match(s) !== undefined;
    const { spec, searched, deps } = await this.specFor('openapi', page.sourcePath, read.file, has);
    if (!spec) return { ...fail('openapi', this.unknown('openapi', label, searched, (s) => operationLabels(s.doc), 'operation')), deps };
    // The document's own spelling of the method (`get`, `GET`): as written in its paths.
    const exact = match(spec)!;
    const settings = this.opts.settings ?? {};
    const found = applySettings(operationViewOf(spec.doc, 'webhook' in ref ? ref : { method: ref.method, path: exact.slice(exact.indexOf(' ') + 1) } as OperationRef)!, settings);
    // The page's description, shown under its title, is not repeated when the operation's says the same.
    const same = (a?: string, b?: string) => !!a && !!b && a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();
    const { description: _said, ...unsaid } = found;
    const view: ApiOperationView = same(page.description, found.description) ? unsaid : found;
    const title = typeof page.frontmatter.title === 'string' ? page.title : view.summary ?? view.operationId ?? label;
    const { main, aside } = splitAside(page.bodyHtml);
    // A page's own `playground:` frontmatter wins over docs.json's.
    const own = page.frontmatter.playground;
    const playground = own === 'interactive' || own === 'simple' || own === 'none' ? own : settings.playground ?? 'interactive';
    const enriched: CompiledPage = {
      ...page, title,
      description: page.description ?? summaryOf(found.description),
      bodyHtml: renderApiOperation(view, { content: main, aside, playground, expanded: settings.expanded }),
      markdown: joinedMarkdown(page, apiMarkdown(title, view)),
      toc: [...page.toc, ...operationToc(view, playground === 'interactive')],
      searchText: `${page.searchText}\n${operationSearchText(title, view)}`,
      apiOperation: { document: spec.name, operation: `${view.method} ${view.path}` },
    };
    return this.sized(enriched, deps, fail);
  }

  private async schemaPage(page: CompiledPage, fail: (k: string, m: string) => FrontmatterResult): Promise<FrontmatterResult> {
    const read = readNamedFrontmatter(page.frontmatter['openapi-schema'], 'Pet or openapi.json Pet');
    if ('problem' in read) return fail('openapi-schema', `openapi-schema: ${read.problem}`);
    const { spec, searched, deps } = await this.specFor('openapi', page.sourcePath, read.file, (s) => schemaLabels(s.doc).includes(read.name));
    if (!spec) return { ...fail('openapi-schema', this.unknown('openapi-schema', read.name, searched, (s) => schemaLabels(s.doc), 'schema')), deps };
    const view = schemaViewOf(spec.doc, read.name)!;
    const title = typeof page.frontmatter.title === 'string' ? page.title : read.name;
    const { main, aside } = splitAside(page.bodyHtml);
    const enriched: CompiledPage = {
      ...page, title,
      description: page.description ?? summaryOf(view.description),
      bodyHtml: renderApiSchema(view, { content: main, aside, expanded: this.opts.settings?.expanded }),
      markdown: joinedMarkdown(page, schemaMarkdown(title, view)),
      toc: [...page.toc, ...(view.fields.length ? [{ depth: 2, id: 'properties', text: 'Properties' }] : [])],
      searchText: [page.searchText, title, view.name, view.description ?? '', ...view.fields.map((f) => `${f.name} ${f.description ?? ''}`)].join('\n'),
    };
    return this.sized(enriched, deps, fail);
  }

  private async channelPage(page: CompiledPage, fail: (k: string, m: string) => FrontmatterResult): Promise<FrontmatterResult> {
    const read = readNamedFrontmatter(page.frontmatter.asyncapi, 'chat or asyncapi.yaml chat');
    if ('problem' in read) return fail('asyncapi', `asyncapi: ${read.problem}`);
    const { spec, searched, deps } = await this.specFor('asyncapi', page.sourcePath, read.file, (s) => channelLabels(s.doc).includes(read.name));
    if (!spec) return { ...fail('asyncapi', this.unknown('asyncapi', read.name, searched, (s) => channelLabels(s.doc), 'channel')), deps };
    const view = channelViewOf(spec.doc, read.name)!;
    const title = typeof page.frontmatter.title === 'string' ? page.title : view.title ?? read.name;
    const { main, aside } = splitAside(page.bodyHtml);
    const enriched: CompiledPage = {
      ...page, title,
      description: page.description ?? summaryOf(view.description ?? view.summary),
      bodyHtml: renderApiChannel(view, { content: main, aside, expanded: this.opts.settings?.expanded }),
      markdown: joinedMarkdown(page, channelMarkdown(title, view)),
      toc: [...page.toc, ...[['parameters', 'Parameters', view.parameters.length], ['servers', 'Servers', view.servers.length], ['operations', 'Operations', view.operations.length], ['messages', 'Messages', 1]]
        .filter(([, , n]) => n).map(([id, text]) => ({ depth: 2, id: String(id), text: String(text) }))],
      searchText: [page.searchText, title, view.address, view.description ?? view.summary ?? '', ...view.messages.flatMap((m) => [m.title ?? m.name, ...(m.payload?.fields ?? []).map((f) => `${f.name} ${f.description ?? ''}`)])].join('\n'),
    };
    return this.sized(enriched, deps, fail);
  }

  /** The message of a name no searched document has: which were searched, and what they do have (the closest first). */
  private unknown(key: string, wanted: string, searched: CatalogSpec[], known: (s: CatalogSpec) => string[], what: string): string {
    const kind = key === 'asyncapi' ? 'asyncapi' : 'openapi';
    if (!searched.length) return `${key}: Unexpected "${wanted}": no ${kind === 'asyncapi' ? 'AsyncAPI' : 'OpenAPI'} document to look it up in; expected the document's path before it (such as ${kind}.json ${wanted}), api.${kind} in docs.json, or an ${kind}.json or ${kind}.yaml file in the repository`;
    const names = searched.map((s) => s.name).join(', ');
    const all = [...new Set(searched.flatMap(known))];
    return `${key}: Unexpected "${wanted}": ${names} ${searched.length > 1 ? 'have' : 'has'} no such ${what}; expected one of ${all.length ? listed(all, wanted) : `its ${what}s (it has none)`}`;
  }

  /** The page, unless its output exceeds the API page limit. */
  private sized(page: CompiledPage, deps: Record<string, string>, fail: (k: string, m: string) => FrontmatterResult): FrontmatterResult {
    const size = page.bodyHtml.length + page.markdown.length + page.searchText.length;
    if (size > MAX_API_PAGE_OUTPUT) {
      const key = API_FRONTMATTER_KEYS.find((k) => page.frontmatter[k] !== undefined)!;
      return { ...fail(key, `${key}: Unexpected size of the API reference page: ${(size / 1_000_000).toFixed(1)} M characters of HTML, Markdown and search text; expected at most ${MAX_API_PAGE_OUTPUT / 1_000_000} M`), deps };
    }
    return { result: page, deps };
  }
}

/** The documents `key` (`openapi`, `asyncapi`) of the navigation names (tabs, groups, anchors, versions…), in reading order. */
export function navigationDocuments(items: readonly unknown[] | undefined, key: 'openapi' | 'asyncapi' = 'openapi'): string[] {
  const out: string[] = [];
  const walk = (list: readonly unknown[]) => {
    for (const item of list) {
      if (!item || typeof item !== 'object') continue;
      const entry = item as Record<string, unknown>;
      const value = entry[key];
      if (typeof value === 'string' && value && !out.includes(value)) out.push(value);
      for (const child of [entry.items, entry.pages]) if (Array.isArray(child)) walk(child);
    }
  };
  walk(items ?? []);
  return out;
}

/** The site's frontmatter API pages, from what the build's plan knows. */
export function frontmatterApi(site: { snapshot: FrontmatterApiOptions['snapshot']; contentRoot: string; config: { openapi?: string; navigation?: readonly unknown[]; apiSettings?: ApiSettings } }, fetchUrl?: FrontmatterApiOptions['fetchUrl']): FrontmatterApi {
  const { snapshot, contentRoot, config } = site;
  const configPath = [`${contentRoot}docs.json`, `${contentRoot}mint.json`].find((p) => snapshot.files.has(p));
  return new FrontmatterApi({
    snapshot, contentRoot, ...(config.openapi ? { openapi: config.openapi } : {}), ...(config.apiSettings?.asyncapi ? { asyncapi: config.apiSettings.asyncapi } : {}),
    navigation: { openapi: navigationDocuments(config.navigation), asyncapi: navigationDocuments(config.navigation, 'asyncapi') },
    ...(fetchUrl ? { fetchUrl } : {}), ...(configPath ? { configPath } : {}), ...(config.apiSettings ? { settings: config.apiSettings } : {}),
  });
}
