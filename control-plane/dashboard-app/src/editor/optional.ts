/**
 * Editor modules mounted when they are part of this build: the MDX and docs.json editing
 * extensions, the live preview pane, real-time collaboration and inline AI. Vite resolves the
 * globs at build time, so a module that is absent is simply not there and the editor uses its
 * own basic setup instead.
 */
import type { Extension } from '@codemirror/state';
import type { ComponentType } from 'preact';
import type { EditorApi, Problem } from './api.ts';
import type { CollabSession } from './collab.ts';

export interface ExtensionsModule {
  mdxExtensions(o: { projectId: string; api: EditorApi; onSave(): void; path?: string }): Extension[];
  docsJsonExtensions(o: { projectId: string; api: EditorApi }): Extension[];
}
export interface PreviewModule {
  PreviewPane: ComponentType<{ projectId: string; path: string; content: string; onProblems(problems: Problem[]): void }>;
}
export type { CollabSession };
export interface CollabModule {
  collabExtension(o: { projectId: string; path: string; user: { id: string; name: string; email: string } }): Promise<CollabSession>;
  /** Who else has which file open now (a Preact hook). */
  useEditingNow?(projectId: string, me?: { id: string }): Record<string, string[]>;
}
export interface InlineAiModule {
  inlineAiExtension(o: { projectId: string; path: string }): Extension;
}

const extensions = import.meta.glob<ExtensionsModule>('./extensions/index.ts');
const preview = import.meta.glob<PreviewModule>('./preview-pane.tsx');
const collab = import.meta.glob<CollabModule>('./collab.ts');
const inlineAi = import.meta.glob<InlineAiModule>(['./inline-ai.ts', './inline-ai.tsx']);

const first = async <T>(mods: Record<string, () => Promise<T>>): Promise<T | undefined> => {
  const load = Object.values(mods)[0];
  return load ? load() : undefined;
};

export const loadExtensions = () => first(extensions);
export const loadPreview = () => first(preview);
export const loadCollab = () => first(collab);
export const loadInlineAi = () => first(inlineAi);
