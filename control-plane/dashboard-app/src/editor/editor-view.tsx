/**
 * One CodeMirror `EditorView` shown in Preact, with one `EditorState` per open file: switching
 * files swaps the state, so each file keeps its own text, selection and undo history.
 *
 * The view lives in an open shadow root. CodeMirror styles itself through style-mod, which adds
 * `<style>` elements to a document (refused by the dashboard's `style-src 'self'`) but adopted
 * stylesheets, which no Content-Security-Policy blocks, to a shadow root. Editor extensions
 * therefore style themselves with `EditorView.theme`/`baseTheme`, never with page CSS.
 */
import { Compartment, EditorState, type Extension, type Transaction } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'preact/hooks';

/** The per-file compartment that holds whether the file may be edited. */
export const editable = new Compartment();

export const readOnlyExtension = (readOnly: boolean): Extension => [EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)];

/** The view and the states of the open files. */
export class EditorHost {
  readonly view: EditorView;
  /** The element that holds the shadow root with the view; the page mounts it. */
  readonly element: HTMLDivElement;
  readonly states = new Map<string, EditorState>();
  current: string | undefined;
  private listeners = new Set<(path: string, state: EditorState, docChanged: boolean) => void>();

  constructor() {
    this.element = document.createElement('div');
    this.element.className = 'cm-host';
    this.element.dataset.testid = 'code-editor';
    const root = this.element.attachShadow({ mode: 'open' });
    this.view = new EditorView({
      root,
      parent: root,
      dispatchTransactions: (trs: readonly Transaction[], view: EditorView) => {
        view.update(trs);
        if (this.current === undefined) return;
        this.states.set(this.current, view.state);
        const docChanged = trs.some((tr) => tr.docChanged);
        for (const fn of this.listeners) fn(this.current, view.state, docChanged);
      },
    });
  }

  /** Calls `fn` after every change of the shown file. */
  onChange(fn: (path: string, state: EditorState, docChanged: boolean) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Shows `path`, with `state` the first time it is shown. */
  show(path: string, make: () => EditorState): void {
    if (this.current !== undefined) this.states.set(this.current, this.view.state);
    let state = this.states.get(path);
    if (!state) {
      state = make();
      this.states.set(path, state);
    }
    this.current = path;
    this.view.setState(state);
  }

  /** Replaces the text of `path` (a reload after a conflict), as one undoable change when shown. */
  replaceText(path: string, text: string): void {
    const state = this.states.get(path);
    if (!state) return;
    const spec = { changes: { from: 0, to: state.doc.length, insert: text } };
    if (this.current === path) this.view.dispatch(spec);
    else this.states.set(path, state.update(spec).state);
  }

  setReadOnly(path: string, readOnly: boolean): void {
    const effects = editable.reconfigure(readOnlyExtension(readOnly));
    if (this.current === path) this.view.dispatch({ effects });
    else {
      const state = this.states.get(path);
      if (state) this.states.set(path, state.update({ effects }).state);
    }
  }

  text(path: string): string | undefined {
    return (this.current === path ? this.view.state : this.states.get(path))?.doc.toString();
  }

  forget(path: string): void {
    this.states.delete(path);
    if (this.current === path) this.current = undefined;
  }

  destroy(): void {
    this.view.destroy();
  }
}

/** The host's view, mounted where this component is. */
export function CodeEditor({ host }: { host: EditorHost }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current!.appendChild(host.element);
    return () => host.element.remove();
  }, [host]);
  return <div class="cm-mount" ref={ref} />;
}
