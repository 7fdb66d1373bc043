/**
 * The builder's MDX compile step: pages in, `CompiledPage`s (body HTML, Markdown export, search
 * text, TOC, updates, frontmatter) or positioned `PageFailure`s out.
 *
 * Pages go through Vite's plugin pipeline with @mdx-js/rollup and run in Vite's module runner
 * (see runner-engine.ts for the measured comparison with a Vite SSR build), are rendered with
 * Preact and the site template's components, and code fences are highlighted by one shared
 * shiki highlighter per sandbox. Pages that need no JavaScript of their own (Markdown and
 * catalogue components with literal props) skip Vite: the static path (static-page.ts) renders
 * them from their syntax tree, to the same bytes.
 *
 * Customer MDX is code, so all of that happens in sandbox processes (../sandbox/, whose
 * `createCompiler` is how the rest of the builder gets a compiler): Node's permission model (no
 * network, no child processes, no threads, reads of the platform's code only, writes to one
 * scratch folder), an empty environment, and where the builder runs as root an empty network
 * namespace and a user of their own. A compiler's sandboxes compile
 * pages of one site: keep a compiler per project, never across customers.
 */
export type { CompileContext, CompileInput, Compiler, CompilerOptions } from './compiler.ts';
export { DEFAULT_PAGE_LIMITS, type PageLimits } from './compiler.ts';
export { isPageFailure } from './compiler.ts';
export { urlPathFor } from './url-path.ts';
export { COMPILER_VERSION } from './compiler-version.ts';
// Types only: the highlighter (shiki) runs in the sandboxes, and importing it here would load it
// into every process that builds.
export type { CodeThemes } from './highlighter.ts';
