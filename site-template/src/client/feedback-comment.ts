/**
 * The optional comment after a thumbs-down: a small form under the feedback buttons. The vote
 * is sent once, with the comment when there is one: on "Send", or when the reader leaves the
 * page without sending (`pagehide`), so a vote is never lost and never counted twice.
 */

/** Most characters a comment may have (the feedback endpoint refuses more). */
export const COMMENT_MAX = 500;

let nextId = 0;

/**
 * Shows the comment form in `root` (once) and calls `send(comment)` exactly once: on submit, or
 * on `pagehide`; `cancel()` drops the pending vote without sending it (the reader changed their
 * mind) and removes the form.
 */
export function askForComment(root: HTMLElement, send: (comment: string) => void): { cancel(): void } {
  root.querySelector('.feedback-comment')?.remove();
  const id = `feedback-comment-${++nextId}`;
  const form = document.createElement('form');
  form.className = 'feedback-comment';
  form.style.cssText = 'display:flex;flex-direction:column;gap:.5rem;margin-top:.75rem;max-width:32rem';
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = 'What could be better? (optional)';
  const text = document.createElement('textarea');
  text.id = id;
  text.rows = 3;
  text.maxLength = COMMENT_MAX;
  text.style.cssText = 'font:inherit;padding:.5rem;border:1px solid var(--border);border-radius:6px;background:transparent;color:inherit;resize:vertical';
  const button = document.createElement('button');
  button.type = 'submit';
  button.textContent = 'Send';
  button.style.cssText = 'align-self:flex-start';
  form.append(label, text, button);
  root.append(form);
  let done = false;
  const finish = (comment: string) => {
    if (done) return;
    done = true;
    window.removeEventListener('pagehide', onHide);
    send(comment.trim().slice(0, COMMENT_MAX));
  };
  const onHide = () => finish(text.value);
  window.addEventListener('pagehide', onHide);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    finish(text.value);
    form.remove();
  });
  text.focus();
  return {
    cancel() {
      done = true;
      window.removeEventListener('pagehide', onHide);
      form.remove();
    },
  };
}
