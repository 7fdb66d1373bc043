/**
 * The assistant panel, loaded on first use (header "Ask AI" or Ctrl/Cmd+I): a dialog where a
 * visitor asks about this site and reads the answer as it streams from `POST /_folio/assistant`
 * (events `citations`, `results`, `delta`, `done`, `error`), with links to the cited sections. The
 * conversation lasts while the page is open; follow-up questions send it along.
 *
 * When no model writes an answer (none set up, the site's answers for today used up, this reader's
 * hour used up), the server sends the best matching sections as `results` (safe HTML it
 * rendered) with a lead sentence, and the panel shows them as search results. Requests say they
 * come from this panel (`X-Folio-Client: site-panel`) and carry an anonymous reader id kept in
 * localStorage (`X-Folio-Reader`), which the per-reader hourly limit counts.
 */
import { answerHtml, type Citation } from './assistant-markdown.ts';
import { ASSISTANT_CSS } from './assistant-styles.ts';
import { folioUrl } from './site-base.ts';

interface Message { role: 'user' | 'assistant'; content: string }

const ENDPOINT = '/_folio/assistant';
const READER_KEY = 'folio-reader';

/** A matching section as the server rendered it (its `html` is escaped Markdown, no raw HTML). */
interface Result extends Citation { html: string; text: string }

/** The reader's anonymous id (random, this browser only); a fresh one when storage is unavailable. */
function readerId(): string {
  const fresh = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
  try {
    let id = localStorage.getItem(READER_KEY);
    if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) localStorage.setItem(READER_KEY, id = fresh());
    return id;
  } catch {
    return fresh();
  }
}

/** The best matching sections under their lead sentence, as search results. */
function resultsView(lead: string, results: Result[]): HTMLElement[] {
  const intro = el('p', 'assistant-lead', lead);
  const list = el('ol', 'assistant-results');
  for (const r of results) {
    const item = el('li', 'assistant-result');
    const link = el('a', 'assistant-result-title', r.section ? `${r.title} › ${r.section}` : r.title);
    link.href = r.path;
    const excerpt = el('div', 'assistant-result-excerpt');
    excerpt.innerHTML = r.html;
    item.append(link, excerpt);
    list.append(item);
  }
  return results.length ? [intro, list] : [intro];
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Reads Server-Sent Events from a response body, calling `on` for each. */
async function readEvents(body: ReadableStream<Uint8Array>, on: (event: string, data: any) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data !== undefined) on(event, JSON.parse(data));
    }
  }
}

function buildPanel() {
  const style = document.createElement('style');
  style.textContent = ASSISTANT_CSS;
  document.head.append(style);
  const dialog = el('dialog', 'assistant-dialog');
  dialog.setAttribute('aria-label', 'Ask AI about these docs');
  const head = el('div', 'assistant-head');
  const title = el('h2', 'assistant-title', 'Ask AI');
  const close = el('button', 'assistant-close', '×');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close');
  head.append(title, close);
  const log = el('div', 'assistant-log');
  log.setAttribute('role', 'log');
  log.setAttribute('aria-live', 'polite');
  const form = el('form', 'assistant-form');
  const input = el('textarea', 'assistant-input');
  Object.assign(input, { rows: 2, maxLength: 2000, placeholder: 'Ask a question about these docs…' });
  input.setAttribute('aria-label', 'Your question');
  const send = el('button', 'assistant-send', 'Ask');
  send.type = 'submit';
  form.append(input, send);
  const note = el('p', 'assistant-note', 'Answers come from these docs only and can be wrong: check the cited pages.');
  dialog.append(head, log, form, note);
  document.body.append(dialog);
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('click', (e) => { if (e.target === dialog) dialog.close(); });
  return { dialog, log, form, input, send };
}

let panel: ReturnType<typeof buildPanel> | undefined;
const conversation: Message[] = [];

async function ask(question: string): Promise<void> {
  const { log, input, send } = panel!;
  conversation.push({ role: 'user', content: question });
  log.append(el('div', 'assistant-msg assistant-user', question));
  const answer = el('div', 'assistant-msg assistant-answer');
  answer.setAttribute('aria-busy', 'true');
  const body = el('div', 'assistant-body', 'Thinking…');
  const sources = el('ol', 'assistant-sources');
  answer.append(body, sources);
  log.append(answer);
  log.scrollTop = log.scrollHeight;
  send.disabled = true;
  let text = '';
  let citations: Citation[] = [];
  let shownResults = false;
  const fail = (message: string) => { body.textContent = message; answer.classList.add('assistant-failed'); conversation.pop(); };
  try {
    const res = await fetch(folioUrl(ENDPOINT), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-folio-client': 'site-panel', 'x-folio-reader': readerId() },
      body: JSON.stringify({ messages: conversation }),
    });
    if (!res.ok || !res.body) {
      const problem = await res.json().catch(() => undefined) as { message?: string } | undefined;
      fail(problem?.message ?? 'The assistant is unavailable right now.');
      return;
    }
    await readEvents(res.body, (event, data) => {
      if (event === 'citations') {
        citations = data.citations;
        sources.replaceChildren(...citations.map((c) => {
          const li = el('li', 'assistant-source');
          const a = el('a', '', c.section ? `${c.title} › ${c.section}` : c.title);
          a.href = c.path;
          li.append(a);
          return li;
        }));
      } else if (event === 'results') {
        shownResults = true;
        body.replaceChildren(...resultsView(data.lead, data.results));
        // The results name their sections themselves.
        sources.replaceChildren();
      } else if (event === 'delta') {
        text += data.text;
        if (!shownResults) body.innerHTML = answerHtml(text, citations);
        log.scrollTop = log.scrollHeight;
      } else if (event === 'done') {
        answer.dataset.mode = data.mode;
        if (data.reason) answer.dataset.reason = data.reason;
        conversation.push({ role: 'assistant', content: text });
      } else if (event === 'error') {
        if (text) body.append(el('p', 'assistant-error', data.message)); else fail(data.message);
      }
    });
  } catch {
    fail('The connection broke off; try again.');
  } finally {
    answer.removeAttribute('aria-busy');
    send.disabled = false;
    input.focus();
  }
}

/** Opens the panel (building it on first use) and focuses the question box. */
export function openAssistant(): void {
  if (!panel) {
    panel = buildPanel();
    const { form, input } = panel;
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const question = input.value.trim();
      if (!question || panel!.send.disabled) return;
      input.value = '';
      void ask(question);
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); form.requestSubmit(); }
    });
  }
  if (!panel.dialog.open) {
    panel.dialog.showModal();
    // Counted for the site's analytics (assistant opens); a failure changes nothing for the visitor.
    navigator.sendBeacon?.(folioUrl(`${ENDPOINT}/open`));
  }
  panel.input.focus();
}
