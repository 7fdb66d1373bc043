/**
 * The editor's own CodeMirror setup for one file: line numbers, folding, undo history, search,
 * bracket matching, the language of the file (Markdown for pages, JSON for docs.json) and a lint
 * gutter for the problems the preview and the build report. The richer MDX and docs.json
 * extensions replace the fallback language setup when they are part of the build (`optional.ts`).
 */
import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { markdown } from '@codemirror/lang-markdown';
import { bracketMatching, defaultHighlightStyle, foldGutter, foldKeymap, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { EditorState, Prec, type Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import type { Problem } from './api.ts';

/**
 * The editor's look in the dashboard's colours (CSS variables reach into the shadow root) with
 * a 3 px focus outline like every other control.
 */
const dashboardTheme = EditorView.theme({
  '&': { height: '100%', backgroundColor: 'var(--panel)', color: 'var(--text)' },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '-3px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: '14px', lineHeight: '1.55' },
  '.cm-gutters': { backgroundColor: 'var(--bg)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'color-mix(in srgb, var(--accent) 8%, transparent)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'color-mix(in srgb, var(--accent) 25%, transparent)' },
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--text)', border: '1px solid var(--border)' },
  '.cm-panels': { backgroundColor: 'var(--bg)', color: 'var(--text)' },
});

/** Whether a path is edited as JSON (docs.json and other .json files). */
export const isJson = (path: string) => /\.json$/i.test(path);

/** What every file gets, whatever else is mounted: numbers, history, keys, lint gutter, theme. */
export function baseExtensions(onSave: () => void): Extension[] {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    history(),
    drawSelection(),
    indentOnInput(),
    highlightActiveLine(),
    lintGutter(),
    EditorView.lineWrapping,
    dashboardTheme,
    Prec.highest(keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => { onSave(); return true; } }])),
    keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
  ];
}

/**
 * The language of the file, folding, search and bracket handling, when the richer MDX and
 * docs.json extensions (which bring their own) are not part of the build.
 */
export function fallbackExtensions(path: string): Extension[] {
  return [
    isJson(path) ? json() : markdown(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    foldGutter(),
    bracketMatching(),
    closeBrackets(),
    highlightSelectionMatches(),
    keymap.of([...closeBracketsKeymap, ...searchKeymap, ...foldKeymap]),
  ];
}

/** Problems (1-based line and column) as lint diagnostics of `state`, clamped into the text. */
export function diagnosticsFor(state: EditorState, problems: Problem[]): Diagnostic[] {
  const doc = state.doc;
  return problems.map((p) => {
    const line = doc.line(Math.min(Math.max(1, Math.floor(p.line) || 1), doc.lines));
    // One character is marked; a position past the end of the line marks its last character.
    let from = Math.min(line.from + Math.max(0, (Math.floor(p.column) || 1) - 1), line.to);
    if (from === line.to && from > line.from) from--;
    const to = from < line.to ? from + 1 : from;
    return { from, to, severity: 'error', message: p.message, source: 'preview' };
  });
}

/** A transaction spec setting `problems` as the file's diagnostics. */
export function problemsSpec(state: EditorState, problems: Problem[]) {
  return setDiagnostics(state, diagnosticsFor(state, problems));
}
