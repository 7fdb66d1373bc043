import { beacon, FEEDBACK_URL } from './beacons.ts';
import { sitePath } from './site-base.ts';
import { canCopy, flashCopied } from './code-blocks.ts';
import { askForComment } from './feedback-comment.ts';

/** "Copy page": copies the page's Markdown export instead of following the link (when copying can work). */
export function initCopyPage(): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-copy-markdown]')) {
    if (!canCopy()) continue;
    link.addEventListener('click', (e) => {
      e.preventDefault();
      const text = fetch(link.href).then((r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status}`);
        return r.text();
      });
      // A ClipboardItem holding a promise keeps the click's user activation across the fetch (Safari needs this).
      const write = typeof ClipboardItem === 'function'
        ? navigator.clipboard.write([new ClipboardItem({ 'text/plain': text.then((t) => new Blob([t], { type: 'text/plain' })) })])
        : text.then((t) => navigator.clipboard.writeText(t));
      write.then(() => flashCopied(link, 'Copied'), () => {
        window.location.href = link.href;
      });
    });
  }
}

/**
 * Page feedback: one beacon per choice with the page path and the answer. A thumbs-down first
 * asks for an optional comment (feedback-comment.ts) and is sent with it.
 */
export function initFeedback(): void {
  const root = document.querySelector<HTMLElement>('.feedback');
  if (!root) return;
  const thanks = root.querySelector('.feedback-thanks');
  let pending: { cancel(): void } | undefined;
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-feedback]')) {
    button.addEventListener('click', () => {
      const helpful = button.dataset.feedback === 'up';
      root.querySelectorAll('[data-feedback]').forEach((b) => b.setAttribute('aria-pressed', String(b === button)));
      pending?.cancel();
      pending = undefined;
      if (helpful) {
        beacon(FEEDBACK_URL, { path: sitePath(), helpful });
        if (thanks) thanks.textContent = 'Thanks for the feedback!';
        return;
      }
      if (thanks) thanks.textContent = '';
      pending = askForComment(root, (comment) => {
        pending = undefined;
        beacon(FEEDBACK_URL, { path: sitePath(), helpful, ...(comment ? { comment } : {}) });
        if (thanks) thanks.textContent = 'Thanks for the feedback!';
      });
    });
  }
}
