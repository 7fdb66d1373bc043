/**
 * The editing extensions of the web editor: what an MDX page and `docs.json` get beyond a plain
 * CodeMirror editor. The editor page adds its own basics (history, default keys, theme,
 * collaboration) and mounts these per file:
 *
 * ```ts
 * new EditorView({ extensions: [basics, mdxExtensions({ projectId, api, onSave })] })
 * ```
 *
 * See README.md in this folder for what each file does.
 */
import type { Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { codeFolding, foldGutter, foldKeymap, syntaxHighlighting, defaultHighlightStyle, bracketMatching } from '@codemirror/language';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { keymap } from '@codemirror/view';
import type { ExtensionsApi } from './api.ts';
import { mdxLanguage } from './mdx-language.ts';
import { formattingKeymap } from './mdx-commands.ts';
import { mdxCompletion } from './mdx-completion.ts';
import { imageUpload } from './image-upload.ts';
import { docsJsonSupport } from './docs-json.ts';

export type { ExtensionsApi, ConfigProblem, LinkTarget } from './api.ts';
export { fetchExtensionsApi, ExtensionsApiError } from './api.ts';

/** Options of `mdxExtensions`. */
export interface MdxOptions {
  projectId: string;
  /** The project's editor API (at least `uploadAsset`, `links`, `validateConfig`). */
  api: ExtensionsApi;
  /** Called on Mod-s with the view; the page saves its draft. */
  onSave: (view: EditorView) => void;
  /** The page's repository path: `](#` then offers this page's anchors as the site makes them (default: read from the text). */
  path?: string;
}

/** Folding, search and the highlight both editors share. */
function common(): Extension {
  return [
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    codeFolding(),
    foldGutter(),
    bracketMatching(),
    closeBrackets(),
    search({ top: true }),
    highlightSelectionMatches(),
    keymap.of([...closeBracketsKeymap, ...searchKeymap, ...foldKeymap, ...completionKeymap]),
  ];
}

/**
 * An MDX page: Markdown + JSX + frontmatter highlighting, folding, search and replace, Mod-s /
 * Mod-b / Mod-i / Mod-k, completion of components, props, links and icons, the slash menu, and
 * image paste and drop through `POST /assets`.
 */
export function mdxExtensions({ api, onSave, path }: MdxOptions): Extension[] {
  return [
    mdxLanguage(),
    common(),
    formattingKeymap(onSave),
    mdxCompletion(api, path),
    imageUpload(api),
    EditorView.lineWrapping,
  ];
}

/** `docs.json`: JSON with the build's own problems inline and completion from the configuration schema. */
export function docsJsonExtensions({ api }: { projectId: string; api: ExtensionsApi }): Extension[] {
  return [docsJsonSupport(api), common()];
}
