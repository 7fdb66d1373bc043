/**
 * Inline AI in the editor: a CodeMirror extension. Mod-j (or the small "AI" button shown on a
 * selection) opens a menu of actions (rewrite, shorten, expand, fix grammar, translate, explain,
 * write from a prompt); the suggestion streams in from `POST …/editor/ai` and is shown as a diff
 * on the page: words it removes are struck through in the text, the new text is shown after it
 * with the words it adds marked. "Accept" (Mod-Enter) applies it as one ordinary transaction
 * (user event `input.ai`), so undo, autosave and collaboration see it like typing; "Reject"
 * (Escape) leaves the text as it was. An explanation has nothing to accept and only closes.
 */
import { StateEffect, StateField, type EditorState, type Extension, type Range } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, WidgetType, keymap, showTooltip, type DecorationSet, type Tooltip } from '@codemirror/view';

export type InlineAction = 'rewrite' | 'shorten' | 'expand' | 'fix_grammar' | 'translate' | 'explain' | 'write';

export const ACTIONS: { action: InlineAction; label: string }[] = [
  { action: 'rewrite', label: 'Rewrite' }, { action: 'shorten', label: 'Shorten' }, { action: 'expand', label: 'Expand' },
  { action: 'fix_grammar', label: 'Fix grammar' }, { action: 'translate', label: 'Translate' }, { action: 'explain', label: 'Explain' },
  { action: 'write', label: 'Write' },
];

interface Suggestion {
  from: number;
  to: number;
  original: string;
  text: string;
  mode: 'replace' | 'insert' | 'explain';
  status: 'streaming' | 'ready' | 'error';
  message?: string;
}

interface AiState { menu: boolean; suggestion: Suggestion | null; /** Whether the plan includes inline AI (null: not known yet). */ available: boolean | null }

const openMenu = StateEffect.define<boolean>();
const startSuggestion = StateEffect.define<Suggestion>();
const appendText = StateEffect.define<string>();
const finishSuggestion = StateEffect.define<{ text: string; mode: Suggestion['mode'] }>();
const failSuggestion = StateEffect.define<string>();
const clearSuggestion = StateEffect.define<null>();
const setAvailable = StateEffect.define<boolean>();

const aiState = StateField.define<AiState>({
  create: () => ({ menu: false, suggestion: null, available: null }),
  update(value, tr) {
    let { menu, suggestion, available } = value;
    if (suggestion && tr.docChanged) suggestion = { ...suggestion, from: tr.changes.mapPos(suggestion.from, -1), to: tr.changes.mapPos(suggestion.to, 1) };
    for (const e of tr.effects) {
      if (e.is(openMenu)) menu = e.value;
      else if (e.is(startSuggestion)) { suggestion = e.value; menu = false; }
      else if (e.is(appendText) && suggestion) suggestion = { ...suggestion, text: suggestion.text + e.value };
      else if (e.is(finishSuggestion) && suggestion) suggestion = { ...suggestion, text: e.value.text, mode: e.value.mode, status: 'ready' };
      else if (e.is(failSuggestion) && suggestion) suggestion = { ...suggestion, status: 'error', message: e.value };
      else if (e.is(clearSuggestion)) suggestion = null;
      else if (e.is(setAvailable)) available = e.value;
    }
    if (menu && tr.selection && !tr.effects.some((e) => e.is(openMenu))) menu = false;
    return menu === value.menu && suggestion === value.suggestion && available === value.available ? value : { menu, suggestion, available };
  },
});

/** A word-level diff: runs of words (with their spacing) kept, removed or added. */
export function diffWords(before: string, after: string): { op: 'same' | 'del' | 'ins'; text: string }[] {
  const a = before.match(/\s+|[^\s]+/g) ?? [];
  const b = after.match(/\s+|[^\s]+/g) ?? [];
  // Longest common subsequence over tokens (selections are bounded to 20,000 characters).
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) return [{ op: 'del', text: before }, { op: 'ins', text: after }];
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: { op: 'same' | 'del' | 'ins'; text: string }[] = [];
  const push = (op: 'same' | 'del' | 'ins', text: string) => {
    const last = out[out.length - 1];
    if (last && last.op === op) last.text += text;
    else out.push({ op, text });
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { push('same', a[i]); i++; j++; }
    else if (j < m && (i >= n || lcs[i][j + 1] >= lcs[i + 1][j])) { push('ins', b[j]); j++; }
    else { push('del', a[i]); i++; }
  }
  return joinChanges(out);
}

/** Spacing kept between two changes joins them, so a changed phrase reads as one: removed words, then added ones. */
function joinChanges(parts: { op: 'same' | 'del' | 'ins'; text: string }[]): { op: 'same' | 'del' | 'ins'; text: string }[] {
  const out: { op: 'same' | 'del' | 'ins'; text: string }[] = [];
  let del = '';
  let ins = '';
  const flush = () => {
    if (del) out.push({ op: 'del', text: del });
    if (ins) out.push({ op: 'ins', text: ins });
    del = '';
    ins = '';
  };
  parts.forEach((p, k) => {
    const between = p.op === 'same' && !p.text.trim() && k > 0 && k < parts.length - 1 && parts[k - 1].op !== 'same' && parts[k + 1].op !== 'same';
    if (between) { del += p.text; ins += p.text; return; }
    if (p.op === 'del') del += p.text;
    else if (p.op === 'ins') ins += p.text;
    else { flush(); out.push(p); }
  });
  flush();
  return out;
}

class SuggestionWidget extends WidgetType {
  readonly s: Suggestion;
  constructor(s: Suggestion) { super(); this.s = s; }
  override eq(other: SuggestionWidget) { return other.s === this.s; }
  override ignoreEvent() { return true; }
  toDOM(view: EditorView): HTMLElement {
    const box = document.createElement('div');
    box.className = `cm-ai-suggestion cm-ai-${this.s.status}`;
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', 'AI suggestion');
    const body = document.createElement('div');
    body.className = 'cm-ai-text';
    if (this.s.mode === 'explain') body.textContent = this.s.text;
    else if (this.s.mode === 'insert') {
      const ins = document.createElement('ins');
      ins.textContent = this.s.text;
      body.append(ins);
    } else {
      for (const part of diffWords(this.s.original, this.s.text)) {
        if (part.op === 'del') continue;
        if (part.op === 'ins') { const ins = document.createElement('ins'); ins.textContent = part.text; body.append(ins); }
        else body.append(document.createTextNode(part.text));
      }
    }
    box.append(body);
    const bar = document.createElement('div');
    bar.className = 'cm-ai-actions';
    const status = document.createElement('span');
    status.className = 'cm-ai-status';
    status.setAttribute('role', 'status');
    status.textContent = this.s.status === 'streaming' ? 'Writing…' : this.s.status === 'error' ? (this.s.message ?? 'The suggestion failed') : '';
    bar.append(status);
    const button = (label: string, run: (v: EditorView) => boolean, disabled = false) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.disabled = disabled;
      b.addEventListener('mousedown', (e) => e.preventDefault());
      b.addEventListener('click', () => { run(view); view.focus(); });
      bar.append(b);
    };
    if (this.s.mode !== 'explain') button('Accept', acceptSuggestion, this.s.status !== 'ready');
    button(this.s.mode === 'explain' ? 'Close' : 'Reject', rejectSuggestion);
    box.append(bar);
    return box;
  }
}

function decorations(state: EditorState): DecorationSet {
  const s = state.field(aiState).suggestion;
  if (!s) return Decoration.none;
  const ranges: Range<Decoration>[] = [];
  if (s.mode === 'replace' && s.status !== 'error') {
    // The words the suggestion removes, struck through in place.
    let at = s.from;
    for (const part of diffWords(s.original, s.text)) {
      if (part.op === 'ins') continue;
      const end = Math.min(at + part.text.length, s.to);
      if (part.op === 'del' && end > at) ranges.push(Decoration.mark({ class: 'cm-ai-deleted', tagName: 'del' }).range(at, end));
      at = end;
    }
  } else if (s.to > s.from) {
    ranges.push(Decoration.mark({ class: 'cm-ai-selected' }).range(s.from, s.to));
  }
  ranges.push(Decoration.widget({ widget: new SuggestionWidget(s), block: true, side: 1 }).range(state.doc.lineAt(s.to).to));
  return Decoration.set(ranges, true);
}

const suggestionDecorations = EditorView.decorations.compute([aiState], decorations);

/** Applies the suggestion as one normal transaction (undo and collaboration see it as typing). */
export function acceptSuggestion(view: EditorView): boolean {
  const s = view.state.field(aiState).suggestion;
  if (!s || s.status !== 'ready' || s.mode === 'explain') return false;
  const changes = s.mode === 'insert' ? { from: s.to, insert: s.text } : { from: s.from, to: s.to, insert: s.text };
  view.dispatch({ changes, effects: clearSuggestion.of(null), userEvent: 'input.ai', selection: { anchor: s.from + (s.mode === 'insert' ? s.to - s.from : 0) + s.text.length }, scrollIntoView: true });
  return true;
}

export function rejectSuggestion(view: EditorView): boolean {
  const st = view.state.field(aiState);
  if (!st.suggestion && !st.menu) return false;
  controllers.get(view)?.abort();
  view.dispatch({ effects: [clearSuggestion.of(null), openMenu.of(false)] });
  return true;
}

const controllers = new WeakMap<EditorView, AbortController>();
let csrf: Promise<string> | undefined;
let planHasInlineAi: Promise<boolean | null> | undefined;

/** Whether the organization's plan includes inline AI (from `GET /plan`), asked once; null when it cannot be read. */
function inlineAiIncluded(): Promise<boolean | null> {
  planHasInlineAi ??= fetch('/dashboard/api/plan', { credentials: 'same-origin', headers: { accept: 'application/json' } })
    .then((r) => (r.ok ? r.json() : null))
    .then((b: { features?: Record<string, { enabled?: boolean }> } | null) => (b?.features?.inline_ai ? b.features.inline_ai.enabled === true : null))
    .catch(() => null);
  return planHasInlineAi;
}

/** Reads the plan once per editor and records it in the state. */
const planCheck = ViewPlugin.define((view) => {
  let live = true;
  void inlineAiIncluded().then((included) => { if (live && included !== null) view.dispatch({ effects: setAvailable.of(included) }); });
  return { destroy() { live = false; } };
});

/** The session's CSRF token (from `GET /session`), fetched once. */
function csrfToken(): Promise<string> {
  csrf ??= fetch('/dashboard/api/session', { credentials: 'same-origin', headers: { accept: 'application/json' } })
    .then((r) => r.json()).then((b: { csrf_token?: string }) => b.csrf_token ?? '')
    .catch(() => { csrf = undefined; return ''; });
  return csrf;
}

/** Runs `action` on the selection: streams the suggestion into the view. */
export async function runInlineAi(view: EditorView, o: { projectId: string; path: string }, action: InlineAction, extra: { language?: string; prompt?: string } = {}): Promise<void> {
  const sel = view.state.selection.main;
  const original = view.state.sliceDoc(sel.from, sel.to);
  controllers.get(view)?.abort();
  const abort = new AbortController();
  controllers.set(view, abort);
  view.dispatch({ effects: startSuggestion.of({ from: sel.from, to: sel.to, original, text: '', mode: action === 'explain' ? 'explain' : action === 'write' ? 'insert' : 'replace', status: 'streaming' }) });
  const fail = (message: string) => { if (!abort.signal.aborted) view.dispatch({ effects: failSuggestion.of(message) }); };
  let res: Response;
  try {
    res = await fetch(`/dashboard/api/projects/${encodeURIComponent(o.projectId)}/editor/ai`, {
      method: 'POST', credentials: 'same-origin', signal: abort.signal,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-csrf-token': await csrfToken() },
      body: JSON.stringify({ action, text: original, path: o.path, ...extra }),
    });
  } catch {
    fail('The server could not be reached; check your connection and try again.');
    return;
  }
  if (!res.ok || !res.body) {
    const body = await res.json().catch(() => ({})) as { message?: string };
    fail(body.message ?? `The suggestion failed (${res.status})`);
    return;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      for (const block of blocks) {
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (!event || !data) continue;
        const payload = JSON.parse(data);
        if (event === 'delta') view.dispatch({ effects: appendText.of(payload.text) });
        else if (event === 'done') view.dispatch({ effects: finishSuggestion.of({ text: payload.text, mode: payload.mode }) });
        else if (event === 'error') fail(payload.message);
      }
    }
  } catch {
    fail('The suggestion stopped; try again.');
  }
}

function menuTooltip(o: { projectId: string; path: string }) {
  return StateField.define<readonly Tooltip[]>({
    create: () => [],
    update(tips, tr) {
      const st = tr.state.field(aiState);
      const sel = tr.state.selection.main;
      if (st.suggestion) return [];
      // The AI button on a selection only where the plan includes inline AI; Mod-j always opens the menu (a 402 then says why).
      if (!st.menu && (sel.empty || st.available === false)) return [];
      if (tips.length && !tr.docChanged && !tr.selection && tr.startState.field(aiState) === st) return tips;
      return [{
        pos: sel.from, above: true, arrow: false,
        create: (view) => ({ dom: st.menu ? menuDom(view, o) : aiButton(view) }),
      }];
    },
    provide: (f) => showTooltip.computeN([f], (state) => state.field(f)),
  });
}

function aiButton(view: EditorView): HTMLElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'cm-ai-open';
  b.textContent = 'AI';
  b.title = 'Ask AI about the selection (Ctrl/Cmd-J)';
  b.addEventListener('mousedown', (e) => e.preventDefault());
  b.addEventListener('click', () => view.dispatch({ effects: openMenu.of(true) }));
  return b;
}

function menuDom(view: EditorView, o: { projectId: string; path: string }): HTMLElement {
  const menu = document.createElement('div');
  menu.className = 'cm-ai-menu';
  menu.setAttribute('role', 'toolbar');
  menu.setAttribute('aria-label', 'AI actions');
  const input = document.createElement('input');
  input.type = 'text';
  input.placeholder = 'Language or request (for Translate or Write)';
  input.setAttribute('aria-label', 'Language or request');
  for (const { action, label } of ACTIONS) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.addEventListener('mousedown', (e) => { if (e.target !== input) e.preventDefault(); });
    b.addEventListener('click', () => {
      const typed = input.value.trim();
      if ((action === 'translate' || action === 'write') && !typed) { input.focus(); input.setAttribute('aria-invalid', 'true'); return; }
      void runInlineAi(view, o, action, action === 'translate' ? { language: typed } : action === 'write' ? { prompt: typed } : {});
    });
    menu.append(b);
  }
  menu.append(input);
  input.addEventListener('keydown', (e) => { if (e.key === 'Escape') { rejectSuggestion(view); view.focus(); } });
  return menu;
}

const theme = EditorView.baseTheme({
  '.cm-ai-deleted': { textDecoration: 'line-through', color: '#b42318', backgroundColor: 'rgba(180, 35, 24, 0.08)' },
  '.cm-ai-selected': { backgroundColor: 'rgba(59, 130, 246, 0.12)' },
  '.cm-ai-suggestion': { border: '1px solid #c7d2fe', borderRadius: '6px', padding: '6px 8px', margin: '4px 0', fontFamily: 'inherit', whiteSpace: 'pre-wrap' },
  '.cm-ai-suggestion ins': { textDecoration: 'none', backgroundColor: 'rgba(22, 163, 74, 0.18)', color: '#14532d' },
  '.cm-ai-actions': { display: 'flex', gap: '6px', alignItems: 'center', marginTop: '6px' },
  '.cm-ai-status': { flex: '1', color: '#555' },
  '.cm-ai-error .cm-ai-status': { color: '#b42318' },
  '.cm-ai-menu': { display: 'flex', flexWrap: 'wrap', gap: '4px', padding: '4px', maxWidth: '420px' },
  '.cm-ai-menu input': { flex: '1 1 100%' },
});

/** The inline AI extension for the file at `path` of project `projectId`. */
export function inlineAiExtension(o: { projectId: string; path: string }): Extension {
  return [
    aiState,
    planCheck,
    suggestionDecorations,
    menuTooltip(o),
    theme,
    keymap.of([
      { key: 'Mod-j', run: (view) => { view.dispatch({ effects: openMenu.of(!view.state.field(aiState).menu) }); return true; } },
      { key: 'Mod-Enter', run: acceptSuggestion },
      { key: 'Escape', run: rejectSuggestion },
    ]),
  ];
}
