/** Pieces of the code-block markup shared by the compile tests (shiki output for plain text). */

export const COPY = '<button class="code-copy" type="button" aria-label="Copy code" hidden>'
  + '<svg class="icon-copy" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><rect x="9" y="9" width="13" height="13" rx="2"/><path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1"/></svg>'
  + '<svg class="icon-check" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M20 6 9 17l-5-5"/></svg></button>';
export const PRE = '<pre class="shiki shiki-themes github-light github-dark" style="--shiki-light:#24292e;--shiki-dark:#e1e4e8;--shiki-light-bg:#fff;--shiki-dark-bg:#24292e" tabindex="0"><code>';
export const EXPAND = '<button class="code-expand" type="button" aria-expanded="false">Show more</button>';

/** Plain-text lines as shiki writes them, with optional classes per 1-based line. */
export function lines(texts: string[], classes: Record<number, string> = {}): string {
  return texts.map((text, i) => `<span class="line${classes[i + 1] ? ` ${classes[i + 1]}` : ''}"><span>${text}</span></span>`).join('\n');
}

/** A whole plain-text code block. */
export function plainBlock(lang: string, texts: string[], opts: { attrs?: string; title?: string; classes?: Record<number, string> } = {}): string {
  const title = opts.title === undefined ? '' : `<figcaption class="code-title">${opts.title}</figcaption>`;
  return `<figure class="code-block" data-lang="${lang}"${opts.attrs ?? ''}>${title}<div class="code-badge">${lang}</div>${COPY}${PRE}${lines(texts, opts.classes)}</code></pre><template class="code-raw">${texts.join('\n')}</template></figure>`;
}
