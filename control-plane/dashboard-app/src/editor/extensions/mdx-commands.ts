/**
 * Formatting commands and their keys: Mod-s saves (the page's `onSave`), Mod-b and Mod-i toggle
 * bold and italic around each selection (or insert the markers around the cursor), Mod-k makes
 * the selection a link `[text](url)` with `url` selected to type over.
 */
import { EditorSelection, Prec, type Extension } from '@codemirror/state';
import { keymap, type Command, type EditorView } from '@codemirror/view';

/**
 * Wraps every selection in `marker`, or removes it when the selection is already wrapped (the
 * markers inside the selection or just outside it). An empty selection gets an empty pair with
 * the cursor between.
 */
export function toggleWrap(marker: string): Command {
  return (view) => {
    const { state } = view;
    const n = marker.length;
    const tr = state.changeByRange((range) => {
      const text = state.sliceDoc(range.from, range.to);
      if (text.length >= 2 * n && text.startsWith(marker) && text.endsWith(marker) && !(marker === '*' && text.startsWith('**') && !text.startsWith('***'))) {
        return { changes: [{ from: range.from, to: range.from + n }, { from: range.to - n, to: range.to }], range: EditorSelection.range(range.from, range.to - 2 * n) };
      }
      const before = state.sliceDoc(range.from - n, range.from);
      const after = state.sliceDoc(range.to, range.to + n);
      if (before === marker && after === marker && !(marker === '*' && state.sliceDoc(range.from - 2, range.from) === '**' && state.sliceDoc(range.from - 3, range.from) !== '***')) {
        return { changes: [{ from: range.from - n, to: range.from }, { from: range.to, to: range.to + n }], range: EditorSelection.range(range.from - n, range.to - n) };
      }
      return { changes: [{ from: range.from, insert: marker }, { from: range.to, insert: marker }], range: EditorSelection.range(range.from + n, range.to + n) };
    });
    view.dispatch(state.update(tr, { scrollIntoView: true, userEvent: 'input.format' }));
    return true;
  };
}

/** Makes each selection `[selection](url)` and selects `url`; a selection that is a URL becomes `[text](that URL)` with `text` selected. */
export const insertLink: Command = (view) => {
  const { state } = view;
  const tr = state.changeByRange((range) => {
    const text = state.sliceDoc(range.from, range.to);
    if (/^https?:\/\/\S+$/.test(text)) {
      const insert = `[text](${text})`;
      return { changes: { from: range.from, to: range.to, insert }, range: EditorSelection.range(range.from + 1, range.from + 5) };
    }
    const insert = `[${text}](url)`;
    const urlFrom = range.from + text.length + 3;
    return { changes: { from: range.from, to: range.to, insert }, range: EditorSelection.range(urlFrom, urlFrom + 3) };
  });
  view.dispatch(state.update(tr, { scrollIntoView: true, userEvent: 'input.format' }));
  return true;
};

/**
 * The editing keys, above the default keymap (whose Mod-i selects the parent syntax node).
 * `onSave` gets the view; the key is always handled so the browser's "save page" never opens.
 */
export function formattingKeymap(onSave: (view: EditorView) => void): Extension {
  return Prec.high(keymap.of([
    { key: 'Mod-s', preventDefault: true, run: (view) => { onSave(view); return true; } },
    { key: 'Mod-b', run: toggleWrap('**') },
    { key: 'Mod-i', run: toggleWrap('*') },
    { key: 'Mod-k', run: insertLink },
  ]));
}
