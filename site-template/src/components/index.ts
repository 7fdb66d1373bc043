import type { ComponentType } from 'preact';
import { Callout, Note, Tip, Warning, Info, Check } from './callout.tsx';
import { Tabs, Tab, CodeGroup } from './tabs.tsx';
import { Steps, Step, Card, CardGroup, Accordion, AccordionGroup, Frame, Badge, Update, Visibility } from './blocks.tsx';

/** MDX components by the name authors use in pages; pass as `components` to the MDX runtime. */
export const components: Record<string, ComponentType<any>> = {
  Callout, Note, Tip, Warning, Info, Check,
  Tabs, Tab, CodeGroup,
  Steps, Step, Card, CardGroup, Accordion, AccordionGroup, Frame, Badge, Update, Visibility,
};
