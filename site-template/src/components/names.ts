/**
 * Names of the MDX components (`components` in `index.ts`) and their sub-components, without
 * loading them: the builder checks a page's element names against this list before compiling
 * it, to fail an unknown component with its place and a suggestion. A test keeps it equal to
 * the components' keys and properties.
 */
export const COMPONENT_NAMES: readonly string[] = [
  'Callout', 'Note', 'Tip', 'Warning', 'Info', 'Check', 'Danger',
  'Tabs', 'Tab', 'CodeGroup',
  'Steps', 'Step', 'Card', 'CardGroup', 'Accordion', 'AccordionGroup', 'Frame', 'Badge', 'Update', 'Visibility',
  'Icon', 'Columns', 'Column', 'Panel', 'Tile', 'View', 'PreviewButton', 'Prompt',
  'ParamField', 'ResponseField', 'Expandable', 'RequestExample', 'ResponseExample',
  'Tree', 'Tree.Folder', 'Tree.File', 'FileTree', 'FileTree.Folder', 'FileTree.File',
  'Color', 'Color.Item', 'Color.Row', 'GitHub', 'GitHub.Repo', 'Tooltip', 'Mermaid', 'CodeBlock', 'Link',
];
