/**
 * The OpenAPI (or AsyncAPI) documents pages may name in their frontmatter, read at most once per build.
 *
 * A page that names a document (`openapi: /v2/openapi.yaml GET /x`) gets that one: a path from
 * the content root (the folder of docs.json), else from the repository root, else from the
 * page's own folders, nearest first (a version or language folder's copy: crewAI's
 * `edge/en/api-reference/status.mdx` naming `/enterprise-api.en.yaml` gets
 * `edge/enterprise-api.en.yaml`), or an http(s) URL fetched through the build's fetcher. A page that names none is looked up, as Mintlify does, in
 * `api.openapi` when docs.json declares it, else in every OpenAPI document of the content root
 * (JSON or YAML files whose text declares `openapi` or `swagger`, plus the URLs navigation
 * `openapi` keys name), the first match by path in alphabetical order winning.
 */
import { userError } from '../errors.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { confinePath } from '../limits/confine-path.ts';
import type { OpenApiDocument } from './read-spec.ts';
import type { FetchUrl } from './spec-source.ts';
import { sha256 } from '../sha256.ts';

/** One document, read and dereferenced. */
export interface CatalogSpec {
  /** As pages and messages name it: the repository path, or the URL. */
  name: string;
  /** Repository path → blob id of the file (absent for a URL): recorded with each page using it. */
  deps: Record<string, string>;
  doc: OpenApiDocument;
}

/** What the catalog reads from. */
export interface SpecCatalogOptions {
  snapshot: RepoSnapshot;
  /** `''` or a folder with its trailing `/`. */
  contentRoot: string;
  /** Which documents: OpenAPI (default; Swagger 2.0 included) or AsyncAPI. */
  kind?: 'openapi' | 'asyncapi';
  /** The document docs.json declares (`api.openapi`, `api.asyncapi`), as written. */
  declared?: string;
  /** Documents named by navigation `openapi` (`asyncapi`) keys, as written. */
  navigation?: readonly string[];
  fetchUrl?: FetchUrl;
  /** The frontmatter key named in errors: `openapi`, `openapi-schema`, `asyncapi`. */
  key?: string;
}

/** Files looked at when searching the repository for documents, at most. */
const MAX_CANDIDATES = 200;
/** Characters of a candidate's start searched for its version field. */
const SNIFF_CHARS = 65_536;

const isUrl = (s: string) => /^https?:\/\//i.test(s);
/** Whether a file's start declares a document of `kind` (OpenAPI 3.x or Swagger 2.0; AsyncAPI 2.x or 3.x), JSON or YAML. */
const declares = (text: string, kind: 'openapi' | 'asyncapi') => (kind === 'asyncapi' ? /(^|[{,\s])["']?asyncapi["']?\s*:\s*["']?[23]\./m : /(^|[{,\s])["']?(openapi|swagger)["']?\s*:\s*["']?[23]\./m).test(text.slice(0, SNIFF_CHARS));

/** The build's documents (see the module comment). */
export class SpecCatalog {
  private readonly loaded = new Map<string, Promise<CatalogSpec>>();
  private searched: Promise<string[]> | undefined;
  private readonly opts: SpecCatalogOptions;

  constructor(opts: SpecCatalogOptions) {
    this.opts = opts;
  }

  /**
   * The repository path (or URL) `written` names, `undefined` when no file has it; `page` (its
   * repository path) adds its folders, nearest first, after the roots.
   */
  resolve(written: string, page?: string): string | undefined {
    if (isUrl(written)) return written;
    const bare = written.replace(/^\.?\/+/, '');
    const folders = page === undefined ? [] : page.split('/').slice(0, -1).map((_, i, parts) => `${parts.slice(0, parts.length - i).join('/')}/`);
    for (const candidate of [this.opts.contentRoot + bare, bare, ...folders.map((f) => f + bare)]) {
      let path: string;
      try { path = confinePath(candidate); } catch { return undefined; }
      if (this.opts.snapshot.files.has(path)) return path;
    }
    return undefined;
  }

  /**
   * The document `written` names (from `page`'s folders when the roots have no such file).
   *
   * @throws BuilderError `invalid_openapi` when no file has that path, a URL cannot be fetched, or the document cannot be read.
   */
  named(written: string, page?: string): Promise<CatalogSpec> {
    const key = this.opts.key ?? 'openapi';
    const path = this.resolve(written, page);
    if (path === undefined) {
      return Promise.reject(userError('invalid_openapi', `${key}: Unexpected document "${written}"; expected the path of a JSON or YAML file from ${this.opts.contentRoot ? `${this.opts.contentRoot.replace(/\/$/, '')}, ` : ''}the repository root${page?.includes('/') ? ' or a folder of the page' : ''}, or an http(s) URL`));
    }
    let found = this.loaded.get(path);
    if (!found) {
      found = this.read(path);
      this.loaded.set(path, found);
    }
    return found;
  }

  /**
   * The documents searched for a page that names none, in the order they are searched:
   * `api.openapi` alone when declared, else every document found (see the module comment).
   */
  async unnamed(): Promise<string[]> {
    if (this.opts.declared) return [this.opts.declared];
    return this.discovered();
  }

  /** Every document of the content root (see the module comment), by path. */
  discovered(): Promise<string[]> {
    this.searched ??= this.search();
    return this.searched;
  }

  private async search(): Promise<string[]> {
    const { snapshot, contentRoot } = this.opts;
    const candidates = [...snapshot.files.keys()]
      .filter((p) => p.startsWith(contentRoot) && /\.(json|ya?ml)$/i.test(p) && !/(^|\/)(node_modules|\.[^/]+)\//.test(p)
        && !/(^|\/)(docs|mint|package|package-lock|tsconfig)\.json$/.test(p))
      .sort()
      .slice(0, MAX_CANDIDATES);
    const found: string[] = [];
    for (const p of candidates) {
      const text = Buffer.from(await snapshot.read(p)).toString('utf8');
      if (declares(text, this.opts.kind ?? 'openapi')) found.push(p);
    }
    const urls = (this.opts.navigation ?? []).filter(isUrl);
    return [...found, ...urls.filter((u, i) => urls.indexOf(u) === i)];
  }

  private async read(path: string): Promise<CatalogSpec> {
    const key = this.opts.key ?? 'openapi';
    // The parsers (YAML, JSON Schema references) load only when a page needs a document.
    const parse = this.opts.kind === 'asyncapi'
      ? (await import('./read-asyncapi.ts')).readAsyncapi
      : (await import('./read-spec.ts')).readSpec;
    if (isUrl(path)) {
      if (!this.opts.fetchUrl) throw userError('invalid_openapi', `${key}: Unexpected URL "${path}": this build cannot fetch documents; expected the path of a file in the repository`);
      const bytes = await this.opts.fetchUrl(path);
      return { name: path, deps: {}, doc: await parse(Buffer.from(bytes).toString('utf8'), path, key) };
    }
    const text = Buffer.from(await this.opts.snapshot.read(path)).toString('utf8');
    return { name: path, deps: { [path]: this.opts.snapshot.files.get(path) ?? sha256(text) }, doc: await parse(text, path, key) };
  }
}
