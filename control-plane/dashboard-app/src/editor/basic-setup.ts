/**
 * The editor's own CodeMirror setup for one file: line numbers, folding, undo history, search,
 * bracket matching, the language of the file (Markdown for pages, JSON for docs.json) and a lint
 * gutter for the problems the preview and the build report. The richer MDX and docs.json
 * extensions are added on top when they are part of the build (`optional.ts`).
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

/** Whether a path is edited as JSON (docs.json and other .json files). */
export const isJson = (path: string) => /\.json$/i.test(path);

/** What every file gets, whatever else is mounted. */
export function baseExtensions(onSave: () => void): Extension[] {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    foldGutter(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    closeBrackets(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    lintGutter(),
    EditorView.lineWrapping,
    Prec.highest(keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => { onSave(); return true; } }])),
    keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap, indentWithTab]),
  ];
}

/** The language of the file when the richer extensions are not there. */
export function languageFor(path: string): Extension {
  return isJson(path) ? json() : markdown();
}

/** Problems (1-based line and column) as lint diagnostics of `state`, clamped into the text. */
export function diagnosticsFor(state: EditorState, problems: Problem[]): Diagnostic[] {
  const doc = state.doc;
  return problems.map((p) => {
    const line = doc.line(Math.min(Math.max(1, Math.floor(p.line) || 1), doc.lines));
    const from = Math.min(line.from + Math.max(0, (Math.floor(p.column) || 1) - 1), line.to);
    const to = from < line.to ? from + 1 : from;
    return { from, to, severity: 'error', message: p.message, source: 'preview' };
  });
}

/** A transaction spec setting `problems` as the file's diagnostics. */
export function problemsSpec(state: EditorState, problems: Problem[]) {
  return setDiagnostics(state, diagnosticsFor(state, problems));
}
