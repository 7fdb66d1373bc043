import type { ComponentType } from 'preact';
import { Callout, Note, Tip, Warning, Info, Check, Danger } from './callout.tsx';
import { Tabs, Tab, CodeGroup } from './tabs.tsx';
import { Steps, Step, Card, CardGroup, Accordion, AccordionGroup, Frame, Badge, Update, Visibility } from './blocks.tsx';
import { Icon } from './icon.tsx';
import { Columns, Column, Panel, Tile, View, PreviewButton, Prompt } from './layout.tsx';
import { ParamField, ResponseField, Expandable, RequestExample, ResponseExample } from './fields.tsx';
import { Tree, FileTree } from './tree.tsx';
import { Color } from './color.tsx';
import { GitHub } from './github.tsx';
import { Tooltip } from './tooltip.tsx';
import { Mermaid } from './mermaid.tsx';
import { CodeBlock } from './code-block.tsx';
import { Link } from './link.tsx';

/**
 * MDX components by the name authors use in pages; pass as `components` to the MDX runtime.
 * Sub-components are properties (`Tree.Folder`, `Color.Item`, `GitHub.Repo`), as MDX reads
 * `<Tree.Folder>`. The builder checks page element names against `COMPONENT_NAMES`
 * (`names.ts`), which a test keeps equal to these keys.
 */
export const components: Record<string, ComponentType<any>> = {
  Callout, Note, Tip, Warning, Info, Check, Danger,
  Tabs, Tab, CodeGroup,
  Steps, Step, Card, CardGroup, Accordion, AccordionGroup, Frame, Badge, Update, Visibility,
  Icon, Columns, Column, Panel, Tile, View, PreviewButton, Prompt,
  ParamField, ResponseField, Expandable, RequestExample, ResponseExample,
  Tree, FileTree, Color, GitHub, Tooltip, Mermaid, CodeBlock, Link,
};
