/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { Icon as UiIcon } from './icons.tsx';

/** Props of `<Tree.Folder>`: `name`, `defaultOpen` (default false); `openable={false}` shows it without a toggle. */
export interface TreeFolderProps { name?: string; defaultOpen?: boolean; openable?: boolean; children?: ComponentChildren }

/** A folder of a file tree: a `<details>` disclosure, so it opens and closes without JavaScript. */
function TreeFolder({ name, defaultOpen = false, openable = true, children }: TreeFolderProps) {
  if (openable === false) {
    return (
      <li class="tree-folder" role="treeitem" aria-expanded="true">
        <span class="tree-name"><UiIcon name="folder" class="tree-icon" />{name}</span>
        <ul role="group">{children}</ul>
      </li>
    );
  }
  return (
    <li class="tree-folder" role="treeitem">
      <details open={defaultOpen}>
        <summary class="tree-name"><UiIcon name="folder" class="tree-icon" />{name}</summary>
        <ul role="group">{children}</ul>
      </details>
    </li>
  );
}

/** A file of a file tree. */
function TreeFile({ name }: { name?: string }) {
  return <li class="tree-file" role="treeitem"><span class="tree-name"><UiIcon name="file" class="tree-icon" />{name}</span></li>;
}

/**
 * `<Tree>` with `<Tree.Folder>` and `<Tree.File>`: a file tree. `<FileTree>` is the same
 * frame; it also styles a plain Markdown list written inside it as a tree.
 */
export function Tree({ children }: { children?: ComponentChildren }) {
  return <div class="tree"><ul role="tree">{children}</ul></div>;
}
Tree.Folder = TreeFolder;
Tree.File = TreeFile;

/** `<FileTree>`: a file tree from `<Tree.*>` children or a nested Markdown list. */
export function FileTree({ children }: { children?: ComponentChildren }) {
  return <div class="tree file-tree">{children}</div>;
}
FileTree.Folder = TreeFolder;
FileTree.File = TreeFile;
