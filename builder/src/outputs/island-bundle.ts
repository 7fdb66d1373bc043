/**
 * Bundles a page's client module (compile/islands.ts) with Preact into one minified ES module
 * for the browser. Only Vite's parser, transforms and bundler touch the page's code here; none of
 * it runs in the builder. Imports resolve inside the repository only (the same rule as the
 * compile: `imports.ts`), `react` is Preact's compatibility layer, and React hooks used without
 * an import are imported from `preact/hooks` as on the server.
 *
 * The bundle is published on the tenant's site, so nothing of the builder's machine may reach
 * it: packages are limited to Preact and React's names for it (no `pkg/../../file?raw`),
 * repository imports to JavaScript and JSON files (no CSS `@import`, no `?raw`/`?url` queries),
 * and `import.meta` (globs, asset URLs) and dynamic `import()` are refused; assets are never
 * inlined. The template's components may be imported by the module (compile/islands.ts binds
 * the built-ins its components name, snippets get the same binding here), with their icon lookup
 * reading the icons the module carries instead of the icon packages' files.
 */
import { createHash } from 'node:crypto';
import type { Plugin, Rollup } from 'vite';
import { userError } from '../errors.ts';
import { resolveRepoImport } from '../compile/imports.ts';
import { HOOKS_MODULE, unboundHooks } from '../compile/page-globals.ts';
import { eachEsNode } from '../compile/estree-walk.ts';
import { componentScopePrelude, unboundComponents } from '../compile/component-scope.ts';
import { CLIENT_TEMPLATE_MODULE } from '../compile/islands.ts';
import { baseViteConfig } from '../compile/template-components.ts';

/** The template's icon component (as Vite names the file), whose icon lookup is the browser's in a client module (icon-library.browser.ts). */
const TEMPLATE_ICON = /[\\/]site-template[\\/]src[\\/]components[\\/]icon\.tsx$/;

const ENTRY = '/@folio-island/entry.jsx';
const REPO = '/@folio-repo/';

/** The packages a client module may import (React's names are aliased to Preact's). */
const PACKAGES = new Set(['preact', 'preact/hooks', 'preact/compat', 'preact/jsx-runtime', 'preact/compat/jsx-runtime', 'react', 'react-dom', 'react/jsx-runtime']);
const CLIENT_FILES = /\.(?:jsx?|mjs|json)$/;

/** Vite's parser (oxc), passed in: Vite is loaded only when a page has islands to bundle. */
type ParseAst = typeof import('vite').parseAst;

/** Refuses what could make the bundler read files outside the repository (see the module comment). */
function checkClientCode(parseAst: ParseAst, code: string, file: string): void {
  const program = parseAst(code, { lang: file.endsWith('.js') || file.endsWith('.mjs') ? 'js' : 'jsx' });
  eachEsNode(program, (n) => {
    if (n.type === 'MetaProperty' || n.type === 'ImportExpression') {
      throw userError('mdx_import', `Unexpected ${n.type === 'MetaProperty' ? 'import.meta' : 'import()'} in ${file}; interactive components may import repository files and React only`);
    }
  });
}

/** Object key of a page's client module: named by its source and the bytes of every file it may import. */
export function islandKey(source: string, deps: Record<string, string>): string {
  const hash = createHash('sha256').update(JSON.stringify([source, Object.entries(deps).sort()])).digest('hex').slice(0, 16);
  return `_folio/islands/${hash}.js`;
}

function repoPlugin(parseAst: ParseAst, source: string, page: string, read: (repoPath: string) => Promise<string | undefined>): Plugin {
  return {
    name: 'folio:islands',
    enforce: 'pre',
    resolveId(spec, importer) {
      if (spec === ENTRY) return ENTRY;
      if (spec === './icon-library.ts' && importer !== undefined && TEMPLATE_ICON.test(importer)) return importer.replace(/icon\.tsx$/, 'icon-library.browser.ts');
      if (importer === undefined || (importer !== ENTRY && !importer.startsWith(REPO))) return null;
      if (spec === CLIENT_TEMPLATE_MODULE) return null; // Vite resolves the template from the platform's packages
      // The entry holds the page's own imports: they resolve from the page's folder.
      const from = importer === ENTRY ? page : importer.slice(REPO.length);
      if (!spec.startsWith('/') && !spec.startsWith('.')) {
        if (PACKAGES.has(spec)) return null; // Vite resolves Preact from the platform's packages
        throw userError('mdx_import', `Unexpected import of \`${spec}\` in an interactive component; expected a repository file, react or preact`, { file: from });
      }
      const resolved = resolveRepoImport(spec, from);
      if (!resolved.ok) throw userError('mdx_import', resolved.message, { file: from });
      if (!CLIENT_FILES.test(resolved.path)) throw userError('mdx_import', `Unexpected import of \`${spec}\` in an interactive component; expected a .js, .jsx or .json file`, { file: from });
      return REPO + resolved.path;
    },
    async load(id) {
      if (id === ENTRY) {
        checkClientCode(parseAst, source, page);
        return source;
      }
      if (!id.startsWith(REPO)) return null;
      const text = await read(id.slice(REPO.length));
      if (text === undefined) throw userError('mdx_import', `Unexpected import of ${id.slice(REPO.length)}: it does not exist in the repository`);
      if (!/\.(?:jsx?|mjs)$/.test(id)) return text;
      checkClientCode(parseAst, text, id.slice(REPO.length));
      // Hooks and built-in components without an import, as on the server (page-globals.ts, component-scope.ts).
      const program = parseAst(text, { lang: id.endsWith('.jsx') ? 'jsx' : 'js' });
      const hooks = unboundHooks(program);
      const withComponents = componentScopePrelude(unboundComponents(program)) + text;
      return hooks.length ? `${withComponents}\nimport { ${hooks.join(', ')} } from '${HOOKS_MODULE}';\n` : withComponents;
    },
  };
}

/** A page's client-module source and the files its imports may reach, as its summary keeps them. */
export interface IslandPage { sourcePath: string; urlPath: string; islands?: string; deps: Record<string, string> }

/**
 * Publishes the client module of every page with islands (bundled only when its key is new) and
 * returns the site path of each page's module by URL path, with one warning per page whose module
 * could not be bundled (that page then renders without hydration).
 */
export async function publishIslands(
  pages: readonly IslandPage[], publisher: { emit(key: string, bytes: string): Promise<void>; keep(key: string): boolean },
  read: (repoPath: string) => Promise<string | undefined>,
): Promise<{ paths: Map<string, string>; warnings: string[] }> {
  const paths = new Map<string, string>();
  const warnings: string[] = [];
  const done = new Set<string>();
  for (const page of pages) {
    if (!page.islands) continue;
    const key = islandKey(page.islands, page.deps);
    try {
      if (!done.has(key) && !publisher.keep(key)) await publisher.emit(key, await bundleIslands(page.islands, page.sourcePath, read));
      done.add(key);
      paths.set(page.urlPath, `/${key}`);
    } catch (err) {
      warnings.push(`${page.sourcePath}: interactive components are not hydrated in the browser: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  return { paths, warnings };
}

/**
 * The browser module of a page's islands.
 *
 * @param page repository path of the page (its imports resolve from its folder).
 * @param read the repository files the module may import, by repository path.
 * @throws BuilderError `mdx_import` (kind `user`) for an import outside the repository or of a missing file.
 */
export async function bundleIslands(source: string, page: string, read: (repoPath: string) => Promise<string | undefined>): Promise<string> {
  let out: Rollup.RollupOutput | Rollup.RollupOutput[];
  try {
    out = await bundle(source, page, read);
  } catch (err) {
    // The bundler wraps a plugin's error in its own report: keep the one line meant for the author.
    const line = /Unexpected [^\n]*/.exec((err as Error).message)?.[0];
    throw userError('mdx_import', line ?? `Unexpected error while bundling the interactive components; ${(err as Error).message.split('\n')[0]}`);
  }
  const outputs = Array.isArray(out) ? out : [out];
  const chunk = outputs.flatMap((o) => o.output).find((o): o is Rollup.OutputChunk => o.type === 'chunk' && o.isEntry);
  if (!chunk) throw userError('mdx_import', 'Unexpected client module without an entry');
  return chunk.code;
}

async function bundle(source: string, page: string, read: (repoPath: string) => Promise<string | undefined>): Promise<Rollup.RollupOutput | Rollup.RollupOutput[]> {
  // Loaded here, not with the module: every build imports this file, few sites have islands, and
  // Vite is the heaviest package a build process would load.
  const { build, parseAst } = await import('vite');
  return await build({
    ...baseViteConfig,
    resolve: { alias: { react: 'preact/compat', 'react-dom': 'preact/compat' } },
    plugins: [repoPlugin(parseAst, source, page, read)],
    build: {
      write: false, minify: true, target: 'es2020', modulePreload: false, copyPublicDir: false, reportCompressedSize: false, assetsInlineLimit: 0,
      rollupOptions: { input: ENTRY, output: { format: 'es' } },
    },
  }) as Rollup.RollupOutput | Rollup.RollupOutput[];
}
