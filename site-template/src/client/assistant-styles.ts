/** The panel's styles, shipped inside its on-demand module so pages that never open it pay nothing. Theme variables keep it in the site's look. */
export const ASSISTANT_CSS = `
.assistant-dialog { width: min(34rem, 100vw); height: 100vh; max-height: none; margin: 0 0 0 auto; padding: 0; border: 0; border-left: 1px solid var(--border); background: var(--bg); color: var(--fg); display: none; flex-direction: column; box-shadow: -16px 0 48px #0004; }
.assistant-dialog[open] { display: flex; }
.assistant-dialog::backdrop { background: #0005; }
.assistant-head { display: flex; align-items: center; justify-content: space-between; padding: 0.75rem 1rem; border-bottom: 1px solid var(--border); }
.assistant-title { margin: 0; font-size: 1rem; }
.assistant-close { border: 0; background: transparent; color: inherit; font-size: 1.5rem; line-height: 1; cursor: pointer; }
.assistant-log { flex: 1; overflow-y: auto; padding: 1rem; display: flex; flex-direction: column; gap: 0.75rem; }
.assistant-msg { padding: 0.6rem 0.8rem; border-radius: var(--radius); font-size: 0.92rem; line-height: 1.5; overflow-wrap: anywhere; }
.assistant-user { align-self: flex-end; background: var(--hover); white-space: pre-wrap; }
.assistant-answer { border: 1px solid var(--border); }
.assistant-answer p, .assistant-answer blockquote, .assistant-answer ul, .assistant-answer pre { margin: 0 0 0.6rem; }
.assistant-answer blockquote { padding-left: 0.75rem; border-left: 3px solid var(--border); color: var(--muted); }
.assistant-cite { font-size: 0.8em; color: var(--accent); }
.assistant-sources { margin: 0.25rem 0 0; padding-left: 1.25rem; font-size: 0.82rem; }
.assistant-sources:empty { display: none; }
.assistant-sources a { color: var(--accent); }
.assistant-lead { font-weight: 600; }
.assistant-results { margin: 0; padding: 0; list-style: none; display: flex; flex-direction: column; gap: 0.75rem; }
.assistant-result-title { color: var(--accent); font-weight: 600; }
.assistant-result-excerpt { margin-top: 0.25rem; color: var(--muted); font-size: 0.88rem; }
.assistant-result-excerpt pre { overflow-x: auto; padding: 0.5rem; border-radius: var(--radius); background: var(--code-bg, var(--hover)); }
.assistant-result-excerpt code { font: 0.9em var(--font-mono); }
.assistant-failed, .assistant-error { color: var(--muted); }
.assistant-form { display: flex; gap: 0.5rem; padding: 0.75rem 1rem 0.25rem; border-top: 1px solid var(--border); }
.assistant-input { flex: 1; resize: none; padding: 0.5rem 0.6rem; border: 1px solid var(--border); border-radius: var(--radius); background: transparent; color: inherit; font: 0.95rem var(--font); }
.assistant-send { padding: 0 1rem; border: 0; border-radius: var(--radius); background: var(--accent); color: var(--bg); font-weight: 600; cursor: pointer; }
.assistant-send:disabled { opacity: 0.6; cursor: wait; }
.assistant-note { margin: 0; padding: 0.25rem 1rem 0.75rem; font-size: 0.75rem; color: var(--muted); }
`;
