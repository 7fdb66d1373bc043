/** The small page the inline AI browser test mounts the extension on (bundled by the test with esbuild). */
import { history, historyKeymap, defaultKeymap, undo } from '@codemirror/commands';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { inlineAiExtension } from '../../dashboard-app/src/editor/inline-ai.ts';

const params = new URLSearchParams(location.search);
const view = new EditorView({
  parent: document.getElementById('editor')!,
  state: EditorState.create({
    doc: 'Intro.\n\nFolio is a host for docs, from git. It deploys fast.\n\nEnd.',
    extensions: [history(), keymap.of([...defaultKeymap, ...historyKeymap]), inlineAiExtension({ projectId: params.get('project')!, path: 'index.mdx' })],
  }),
});
Object.assign(window, { view, undo: () => undo(view) });
