/** Lines shown before an expandable block collapses (spec 2.12). */
export const COLLAPSED_LINES = 15;
/** How long the copy button shows its check icon. */
export const COPIED_MS = 2000;

/** True where the async clipboard can be used (secure context; localhost counts). */
export function canCopy(): boolean {
  return window.isSecureContext && !!navigator.clipboard;
}

/** Shows a check state on a copy control for ~2 s. */
export function flashCopied(el: HTMLElement, label: string): void {
  const previous = el.getAttribute('aria-label');
  el.setAttribute('data-copied', '');
  if (previous !== null) el.setAttribute('aria-label', label);
  window.setTimeout(() => {
    el.removeAttribute('data-copied');
    if (previous !== null) el.setAttribute('aria-label', previous);
  }, COPIED_MS);
}

/** The raw code of a block: its `<template class="code-raw">` (exact source), else the rendered text. */
export function rawCode(figure: HTMLElement): string {
  const raw = figure.querySelector<HTMLTemplateElement>('template.code-raw');
  return raw ? (raw.content.textContent ?? '') : (figure.querySelector('pre')?.innerText ?? '');
}

/**
 * Copy buttons (shown only when copying can work) and expandable blocks (collapsed only once
 * this runs, so without JavaScript the whole block stays readable).
 */
export function initCodeBlocks(): void {
  const copyable = canCopy();
  for (const figure of document.querySelectorAll<HTMLElement>('figure.code-block:not([data-ready])')) {
    figure.setAttribute('data-ready', '');
    const copy = figure.querySelector<HTMLButtonElement>('.code-copy');
    if (copy && copyable) {
      copy.hidden = false;
      copy.addEventListener('click', () => {
        navigator.clipboard.writeText(rawCode(figure)).then(() => flashCopied(copy, 'Copied'), () => undefined);
      });
    }
    const expand = figure.querySelector<HTMLButtonElement>('.code-expand');
    if (!expand) continue;
    const lines = figure.querySelectorAll('pre .line').length;
    if (!figure.hasAttribute('data-expandable') || lines <= COLLAPSED_LINES) {
      expand.remove();
      continue;
    }
    figure.setAttribute('data-collapsed', '');
    expand.addEventListener('click', () => {
      const open = figure.toggleAttribute('data-collapsed') === false;
      expand.setAttribute('aria-expanded', String(open));
      expand.textContent = open ? 'Show less' : 'Show more';
    });
  }
}
