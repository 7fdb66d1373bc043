/**
 * The raw floor the compile step is measured against: what a plain `@mdx-js/mdx` setup costs
 * for one page: compile + run (`evaluate`) with GFM and frontmatter, code highlighted by
 * `@shikijs/rehype` with the same kind of shared highlighter and dual themes, rendered with
 * Preact and the template's components. No Vite, no exports, no checks, no carriers.
 * Benchmarks call it next to the real compiler in the same run.
 */
import { evaluate } from '@mdx-js/mdx';
import rehypeShikiFromHighlighter from '@shikijs/rehype/core';
import { h } from 'preact';
import * as runtime from 'preact/jsx-runtime';
import { renderToString } from 'preact-render-to-string';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import { createSharedHighlighter, HIGHLIGHT_OPTIONS, type CodeThemes } from './highlighter.ts';
import type { MdxContent } from './render.ts';
import { loadTemplateComponents } from './template-components.ts';

/** Renders single pages the plain way. */
export interface RawFloor {
  /** Compiles, runs and renders one page; returns its body HTML. */
  render(source: string, sourcePath: string): Promise<string>;
  close(): Promise<void>;
}

/** Creates a raw floor with its own highlighter (themes default to GitHub light/dark). */
export async function createRawFloor(opts: { themes?: CodeThemes } = {}): Promise<RawFloor> {
  const shared = await createSharedHighlighter(opts.themes);
  const components = await loadTemplateComponents();
  const shiki = [rehypeShikiFromHighlighter, shared.highlighter, {
    themes: { light: shared.themes.light, dark: shared.themes.dark },
    defaultColor: false,
    lazy: true,
    fallbackLanguage: 'text',
    ...HIGHLIGHT_OPTIONS,
  }] as const;
  return {
    async render(source, sourcePath) {
      const mod = await evaluate(source, {
        ...runtime,
        format: sourcePath.endsWith('.md') ? 'md' : 'mdx',
        elementAttributeNameCase: 'html',
        remarkPlugins: [[remarkFrontmatter, ['yaml']], remarkGfm],
        rehypePlugins: [shiki as never],
      } as never);
      return renderToString(h(mod.default as MdxContent, { components }));
    },
    async close() {
      shared.highlighter.dispose();
    },
  };
}
