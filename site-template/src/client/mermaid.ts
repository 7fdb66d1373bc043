/**
 * Draws `<Mermaid>` diagrams (`figure[data-mermaid]`, their source in a code block). Only pages
 * that have one load the library: `mermaid.esm.min.mjs` from the `mermaid` package, published
 * beside this script under `_folio/mermaid-<version>/` (build-client-assets.ts). The source
 * stays in place until the SVG is ready, and stays for good if drawing fails.
 */
import { MERMAID_DIR } from '../shared/mermaid-dir.ts';

interface MermaidApi {
  initialize(config: Record<string, unknown>): void;
  render(id: string, source: string): Promise<{ svg: string }>;
}

/** Replaces each diagram's source with its SVG, in the page's current colour mode. */
export async function initMermaid(): Promise<void> {
  const figures = [...document.querySelectorAll<HTMLElement>('figure[data-mermaid]:not([data-ready])')];
  if (!figures.length) return;
  // A variable, so the bundler leaves this URL alone: the library is not part of the bundle.
  const base = import.meta.url;
  const { default: mermaid } = (await import(/* @vite-ignore */ new URL(`${MERMAID_DIR}/mermaid.esm.min.mjs`, base).href)) as { default: MermaidApi };
  const dark = document.documentElement.dataset.mode === 'dark'
    || (!document.documentElement.dataset.mode && window.matchMedia('(prefers-color-scheme: dark)').matches);
  mermaid.initialize({ startOnLoad: false, theme: dark ? 'dark' : 'default', securityLevel: 'strict' });
  let n = 0;
  for (const figure of figures) {
    const source = figure.querySelector('.mermaid-source')?.textContent ?? '';
    try {
      const { svg } = await mermaid.render(`folio-mermaid-${++n}`, source);
      const holder = document.createElement('div');
      holder.className = 'mermaid-svg';
      holder.innerHTML = svg;
      figure.querySelector('.mermaid-source')?.setAttribute('hidden', '');
      figure.append(holder);
      figure.setAttribute('data-ready', '');
    } catch {
      figure.setAttribute('data-failed', '');
    }
  }
}
