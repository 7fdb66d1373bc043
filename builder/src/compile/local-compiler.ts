/**
 * A compiler running in the calling thread: one shared highlighter, one Vite module runner.
 * Used directly for small batches and inside each worker of the pool. Pages that need no
 * JavaScript of their own take the static path (static-page.ts) unless `staticPath` is false;
 * the others, and any static page whose compile fails (so its error reads as it always has),
 * go through Vite.
 */
import type { CompiledPage, PageFailure } from '../types.ts';
import { userError } from '../errors.ts';
import type { CompileContext, CompileInput, Compiler } from './compiler.ts';
import { assemblePage } from './assemble.ts';
import { toPageFailure } from './errors-to-failure.ts';
import { markHeadingIds } from './heading-ids.ts';
import { createSharedHighlighter, type CodeThemes } from './highlighter.ts';
import { BatchIds, type PageSource } from './page-plugin.ts';
import type { FolioRemarkEnv, PageFacts } from './remark-folio.ts';
import { codeBlockLanguages, CodeBlocks, highlightTemplateCodeBlocks, pageComponents, renderMdx } from './render.ts';
// Types only: Vite and MDX's Rollup plugin load when a page first needs them (`viteEngine`).
import type { ModuleResult, PageEngine } from './runner-engine.ts';
import { StaticPages, type StaticResult } from './static-page.ts';

/** Options of {@link createLocalCompiler}. */
export interface LocalCompilerOptions {
  themes?: CodeThemes;
  /** False: every page goes through Vite (default true). */
  staticPath?: boolean;
  /**
   * The `file:` URL of the template's components bundle (template-bundle.ts). With it, Vite is
   * started only when the first page that needs it arrives; without it, at once, to load the
   * template.
   */
  template?: string;
  /**
   * Called once, after Vite is loaded and before any page's own code runs (the sandbox takes away
   * what page code has no use for then: sandbox/lockdown.ts). Static pages run no page code.
   */
  beforePageCode?(): void;
}

/** Creates an in-thread compiler. */
export async function createLocalCompiler(opts: LocalCompilerOptions = {}): Promise<Compiler & { staticPages(): number }> {
  const highlighter = await createSharedHighlighter(opts.themes);
  const facts = new Map<string, PageFacts>();
  let source: PageSource | undefined;
  const blocks = new CodeBlocks();
  const env: FolioRemarkEnv = {
    highlighter,
    repoPath: BatchIds.repoPath,
    read: (path) => source!.read(path),
    report: (id, f) => void facts.set(id, f),
    putCode: (html) => blocks.put(html),
  };
  let engine: Promise<PageEngine> | undefined;
  const viteEngine = () => (engine ??= import('./runner-engine.ts').then(async ({ createRunnerEngine }) => {
    const started = await createRunnerEngine(env, opts.template);
    opts.beforePageCode?.();
    return started;
  }));
  const template = opts.template
    ? (await import(opts.template) as { components: Record<string, unknown> }).components
    : (await viteEngine()).components;
  highlightTemplateCodeBlocks(template, highlighter);
  const components = pageComponents(template, blocks);
  const statics = opts.staticPath === false ? undefined : new StaticPages(env, components);
  let staticCount = 0;
  let batch = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const compileBatch = async (given: CompileInput[], ctx: CompileContext): Promise<Array<CompiledPage | PageFailure>> => {
    const ids = new BatchIds(++batch);
    // Mintlify's `## Title {#id}` headings, made readable by MDX (heading-ids.ts).
    const inputs = given.map((input) => ({ ...input, source: input.sourcePath.endsWith('.md') ? input.source : markHeadingIds(input.source) }));
    const byPath = new Map(inputs.map((input) => [input.sourcePath, input.source]));
    const reads = new Map<string, Promise<string | undefined>>();
    const batchSource: PageSource = {
      read(path) {
        const own = byPath.get(path);
        if (own !== undefined) return Promise.resolve(own);
        let read = reads.get(path);
        if (!read) reads.set(path, (read = ctx.readFile(path).then((text) => (text !== undefined && path.endsWith('.mdx') ? markHeadingIds(text) : text))));
        return read;
      },
    };
    source = batchSource;
    const modules: Array<ModuleResult | StaticResult> = statics
      ? await Promise.all(inputs.map((input) => statics.render(ids.id(input.sourcePath), input.source)))
      : inputs.map(() => ({ ok: false }));
    const viaVite = inputs.filter((_, i) => !modules[i].ok);
    staticCount += inputs.length - viaVite.length;
    const loaded = viaVite.length > 0 ? await (await viteEngine()).load(ids, viaVite.map((i) => i.sourcePath), batchSource) : [];
    let next = 0;
    for (let i = 0; i < modules.length; i++) if (!modules[i].ok) modules[i] = loaded[next++];
    // `<CodeBlock>` renders synchronously: the grammars its tags name are loaded first.
    const imported = await Promise.all([...reads.values()].map((r) => r.catch(() => undefined)));
    await Promise.all([...codeBlockLanguages([...byPath.values(), ...imported])].map((tag) => highlighter.ensureLanguage(tag)));
    try {
      return inputs.map((input, i) => {
        const mod = modules[i];
        if (!mod.ok) return toPageFailure(mod.error, input.sourcePath);
        const pageFacts = facts.get(ids.id(input.sourcePath));
        try {
          if (!pageFacts) throw userError('mdx_runtime', 'Unexpected page without compile facts', { file: input.sourcePath });
          return assemblePage(input.sourcePath, input.contentRoot, pageFacts, renderMdx(mod.Content, components));
        } catch (err) {
          return toPageFailure(err, input.sourcePath);
        }
      });
    } finally {
      for (const path of byPath.keys()) facts.delete(ids.id(path));
      for (const path of reads.keys()) facts.delete(ids.id(path));
      blocks.clear();
    }
  };
  return {
    staticPages: () => staticCount,
    compile(inputs, ctx) {
      // Batches run one after another: the remark plugin reads through the current batch's source.
      const next = queue.then(() => compileBatch(inputs, ctx), () => compileBatch(inputs, ctx));
      queue = next.catch(() => undefined);
      return next;
    },
    async close() {
      await (await engine)?.close();
      highlighter.highlighter.dispose();
    },
  };
}
