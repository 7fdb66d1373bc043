/**
 * The MDX options every page compiles with: GFM, YAML frontmatter, the platform's remark plugin,
 * Preact's JSX runtime, HTML attribute names.
 */
import type { CompileOptions } from '@mdx-js/mdx';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import { installLinearEditMap } from './micromark-edit-map.ts';
import { remarkFolio, type FolioRemarkEnv } from './remark-folio.ts';

/** MDX compile options (without `format`, which follows the file extension: `.md` is plain Markdown). */
export function mdxOptions(env: FolioRemarkEnv): CompileOptions {
  // Pages with many list-ending lines (changelogs) parsed in quadratic time (micromark-edit-map.ts).
  installLinearEditMap();
  return {
    // @mdx-js/rollup generates source maps unless told otherwise; nobody debugs customer pages
    // through them and they cost time on every page.
    SourceMapGenerator: undefined,
    jsxImportSource: 'preact',
    elementAttributeNameCase: 'html',
    development: false,
    remarkPlugins: [[remarkFrontmatter, ['yaml']], remarkGfm, [remarkFolio, env]],
  };
}
