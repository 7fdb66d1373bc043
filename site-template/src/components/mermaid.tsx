/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { textOf } from './text-of.ts';

/** Props of `<Mermaid>`: `chart` (the diagram's Mermaid source), or the source as children. */
export interface MermaidProps { chart?: string; children?: ComponentChildren }

/**
 * A Mermaid diagram. The server writes its source as a code block (the static fallback: what
 * readers see without JavaScript, and what search and exports read); on pages that have one the
 * client loads the `mermaid` library and draws the SVG in place. Rendering at build time would
 * need a browser for text layout, so it is done in the reader's.
 */
export function Mermaid({ chart, children }: MermaidProps) {
  const source = (chart ?? textOf(children)).trim();
  return (
    <figure class="mermaid" data-mermaid="">
      <pre class="mermaid-source"><code>{source}</code></pre>
    </figure>
  );
}
