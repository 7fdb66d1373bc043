/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { Icon as UiIcon } from './icons.tsx';
import { IconGlyph } from './icon.tsx';
import { textOf } from './text-of.ts';
import { lineSet } from '../shared/line-set.ts';

/**
 * Props of `<CodeBlock>` (Mintlify's component for code blocks written by custom components):
 * `language`, `filename` (the header), `icon`, `lines` (line numbers), `wrap`, `nocopy`,
 * `expandable`, `highlight` and `focus` (line numbers: `"[1,3]"`, `"1,3-5"` or an array).
 */
export interface CodeBlockProps {
  language?: string; filename?: string; icon?: string; iconType?: string; lines?: boolean; wrap?: boolean;
  nocopy?: boolean; expandable?: boolean; highlight?: unknown; focus?: unknown; children?: ComponentChildren;
}

/** The copy button of the code-block markup (hidden until the page script finds copying can work). */
export function CopyButton({ label }: { label: string }) {
  return (
    <button class="code-copy" type="button" aria-label={label} hidden>
      <UiIcon name="copy" class="icon-copy" /><UiIcon name="check" class="icon-check" />
    </button>
  );
}

export { lineSet } from '../shared/line-set.ts';

/**
 * A code block rendered while the page runs (its code is a string a component computed), in
 * the markup of the page's highlighted fences, so the same copy button, expand control and
 * styles serve it. This plain form is what the browser's islands render; the builder renders
 * pages with a highlighting one in its place (builder `compile/render.ts`).
 */
export function CodeBlock({ language, filename, icon, iconType, lines, wrap, nocopy, expandable, highlight, focus, children }: CodeBlockProps) {
  const code = (typeof children === 'string' ? children : textOf(children)).replace(/^\n/, '').replace(/\n$/, '');
  const marked = lineSet(highlight);
  const focused = lineSet(focus);
  const lang = language?.trim() || 'text';
  return (
    <figure class="code-block" data-lang={lang} data-line-numbers={lines ? '' : undefined} data-wrap={wrap ? '' : undefined}
      data-expandable={expandable ? '' : undefined} data-has-focus={focused.size ? '' : undefined}>
      {filename || icon ? <figcaption class="code-title">{icon ? <IconGlyph icon={icon} iconType={iconType} /> : null}{filename}</figcaption> : null}
      <div class="code-badge">{lang}</div>
      {nocopy ? null : <CopyButton label="Copy code" />}
      <pre class="code-plain" tabindex={0}><code>{code.split('\n').map((line, i) => {
        const classes = ['line', marked.has(i + 1) ? 'highlighted' : '', focused.has(i + 1) ? 'focused' : ''].filter(Boolean).join(' ');
        return [i ? '\n' : '', <span class={classes}>{line}</span>];
      })}</code></pre>
      <template class="code-raw">{code}</template>
      {expandable ? <button class="code-expand" type="button" aria-expanded="false">Show more</button> : null}
    </figure>
  );
}
