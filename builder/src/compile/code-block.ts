/**
 * Renders one code fence to the finished HTML the site template styles and scripts (copy
 * button, expandable blocks). The markup is a contract with the template:
 *
 * `<figure class="code-block" data-lang="ts"[ data-line-numbers][ data-wrap][ data-expandable][ data-has-focus][ data-diff]>`
 * `[<figcaption class="code-title">title</figcaption>]<div class="code-badge">ts</div>`
 * `<button class="code-copy" …>…</button><pre class="shiki …">…</pre>`
 * `<template class="code-raw">raw code, escaped</template>[<button class="code-expand" …>Show more</button>]</figure>`
 *
 * The result is a string on purpose: it reaches the page as one raw-HTML carrier instead of
 * thousands of JSX nodes, which would cost about a third of the compile time.
 */
import type { ShikiTransformer } from 'shiki';
import type { CodeMeta } from './code-meta.ts';
import { HIGHLIGHT_OPTIONS, type SharedHighlighter } from './highlighter.ts';
import { lineSet } from '@folio/site-template/shared/line-set.ts';

/** Blocks longer than this many lines honour `expandable` (spec 2.12). */
export const EXPANDABLE_MIN_LINES = 16;

const COPY_ICON = '<svg class="icon-copy" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><rect x="9" y="9" width="13" height="13" rx="2"/><path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1"/></svg>';
const CHECK_ICON = '<svg class="icon-check" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M20 6 9 17l-5-5"/></svg>';
const COPY_BUTTON = `<button class="code-copy" type="button" aria-label="Copy code" hidden>${COPY_ICON}${CHECK_ICON}</button>`;
const EXPAND_BUTTON = '<button class="code-expand" type="button" aria-expanded="false">Show more</button>';

/** Escapes text for HTML content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

function lineClasses(meta: CodeMeta, diff: Array<'add' | 'remove' | undefined>): ShikiTransformer {
  return {
    name: 'folio:line-classes',
    line(node, line) {
      if (meta.highlight.has(line)) this.addClassToHast(node, 'highlighted');
      if (meta.focus.has(line)) this.addClassToHast(node, 'focused');
      const change = diff[line - 1];
      if (change) this.addClassToHast(node, ['diff', change]);
    },
  };
}

/**
 * A `diff` block's code without its `+`/`-` markers, the change of each line, and what the copy
 * button copies: the new version (removed lines left out), which is what a reader pastes.
 */
function splitDiff(code: string): { shown: string; changes: Array<'add' | 'remove' | undefined>; copied: string } {
  const changes: Array<'add' | 'remove' | undefined> = [];
  const shown = code.split('\n').map((line) => {
    const change = line.startsWith('+') ? 'add' : line.startsWith('-') ? 'remove' : undefined;
    changes.push(change);
    return change ? line.slice(1) : line;
  });
  return { shown: shown.join('\n'), changes, copied: shown.filter((_, i) => changes[i] !== 'remove').join('\n') };
}

/**
 * Highlights `code` and wraps it in the code-block markup.
 * @param tag the fence's language tag as written (`''` when none; shown as `text`)
 * @param lang the grammar to use, from `SharedHighlighter.ensureLanguage(tag)`
 */
export function renderCodeBlock(shared: SharedHighlighter, source: string, tag: string, lang: string, meta: CodeMeta): string {
  const shown = escapeHtml(tag === '' ? 'text' : tag);
  const diff = meta.diff ? splitDiff(source) : undefined;
  const code = diff ? diff.shown : source;
  const lineCount = code.split('\n').length;
  const expandable = meta.expandable && lineCount >= EXPANDABLE_MIN_LINES;
  const lines = meta.highlight.size > 0 || meta.focus.size > 0 || diff ? [lineClasses(meta, diff?.changes ?? [])] : [];
  // One tokenization for both themes when they line up; `ansi` takes each theme's own palette.
  const pair = lang === 'ansi' ? undefined : shared.pair;
  const highlighter = shared.highlighterOf(lang);
  const pre = pair
    ? highlighter.codeToHtml(code, { lang, theme: pair.theme, mergeWhitespaces: false, transformers: [pair.transformer, ...lines], ...HIGHLIGHT_OPTIONS })
    : highlighter.codeToHtml(code, { lang, themes: { light: shared.themes.light, dark: shared.themes.dark }, defaultColor: false, transformers: lines, ...HIGHLIGHT_OPTIONS });
  let open = `<figure class="code-block" data-lang="${shown}"`;
  if (meta.lineNumbers) open += ' data-line-numbers';
  if (meta.wrap) open += ' data-wrap';
  if (expandable) open += ' data-expandable';
  if (meta.focus.size > 0) open += ' data-has-focus';
  if (diff) open += ' data-diff';
  open += '>';
  const title = meta.title === undefined ? '' : `<figcaption class="code-title">${escapeHtml(meta.title)}</figcaption>`;
  return `${open}${title}<div class="code-badge">${shown}</div>${COPY_BUTTON}${pre}<template class="code-raw">${escapeHtml(diff ? diff.copied : code)}</template>${expandable ? EXPAND_BUTTON : ''}</figure>`;
}

/** Props of `<CodeBlock>` (site-template `code-block.tsx`) that shape its code. */
export interface CodeBlockComponentProps { language?: string; highlight?: unknown; focus?: unknown }


/**
 * The highlighted `<pre>` of a `<CodeBlock>`'s code, as a fence of its language gets it (its
 * `highlight` and `focus` lines marked); the caller puts it in the template's block. Undefined
 * while the language's grammar is not loaded (the block stays plain).
 */
export function highlightCodeBlock(shared: SharedHighlighter, code: string, props: CodeBlockComponentProps): string | undefined {
  const tag = props.language?.trim() ?? '';
  const lang = shared.loadedLanguage(tag);
  if (lang === undefined) return undefined;
  const meta: CodeMeta = { lineNumbers: false, wrap: false, expandable: false, diff: false, highlight: lineSet(props.highlight), focus: lineSet(props.focus) };
  const html = renderCodeBlock(shared, code, tag, lang, meta);
  const at = html.indexOf('<pre');
  const end = html.indexOf('</pre>', at);
  return at < 0 || end < 0 ? undefined : html.slice(at, end + '</pre>'.length);
}
