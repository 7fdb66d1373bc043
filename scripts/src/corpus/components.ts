/**
 * MDX components in generated pages, as often as in a real public MDX docs corpus: the number of
 * pages using each, per 270 pages, as measured there. Only components the site template provides
 * (`site-template/src/components/index.ts`) are written; a measured component the template lacks
 * is written as the nearest one it has, so the page still costs what such a page costs (a JSX
 * element with props and children) and builds:
 *
 * - `Tree` (a file tree) → nested `<Accordion>`s, one per folder, files listed inside;
 * - `Color` (colour swatches) → `<Badge color>`s, the template's only coloured element;
 * - `ResponseField`, `ParamField` (name, type, description) → `<Accordion title description>`;
 * - `RequestExample` (code in tabs, in a side panel) → `<CodeGroup>`;
 * - `Columns` (a grid) → `<CardGroup cols>`;
 * - `Panel` (a side box) → `<Card>`;
 * - `Icon` (an inline icon) → `<Badge>` with the icon's name.
 */
import { codeFence } from './code-samples.ts';
import type { Random } from './random.ts';

/** Pages using each measured component, per 270 pages (callouts: Note, Warning, Info, Tip, Check together). */
export const COMPONENTS_PER_270_PAGES = {
  Tree: 42, Badge: 32, Color: 31, Card: 29, ResponseField: 27, Tabs: 24, Steps: 20, ParamField: 17, Frame: 15,
  Accordion: 15, RequestExample: 14, Visibility: 12, CodeGroup: 10, Update: 9, Columns: 9, Panel: 8, Icon: 7, Callout: 45,
} as const;

export type MeasuredComponent = keyof typeof COMPONENTS_PER_270_PAGES;

const NOUNS = ['project', 'deployment', 'API key', 'webhook', 'custom domain', 'branch', 'preview', 'search index', 'team member', 'invoice', 'redirect', 'theme', 'snippet', 'navigation group', 'analytics event'];
const VERBS = ['configure', 'create', 'rotate', 'connect', 'verify', 'publish', 'archive', 'invite', 'filter', 'export'];
const TYPES = ['string', 'integer', 'boolean', 'object', 'string[]', 'enum'];
const BADGE_COLORS = ['gray', 'blue', 'green', 'yellow', 'red', 'purple'];
const ICONS = ['rocket', 'book', 'code', 'gear', 'bolt', 'shield'];

const noun = (r: Random) => r.pick(NOUNS);
const nouns = (r: Random) => noun(r).replace(/(x|s)$/, '$1e') + 's';
const aNoun = (r: Random) => {
  const n = noun(r);
  return `${/^[aeiou]/i.test(n) ? 'an' : 'a'} ${n}`;
};
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
const field = (r: Random) => `${r.pick(['id', 'name', 'status', 'created_at', 'limit', 'cursor', 'url', 'email', 'role', 'domain'])}${r.chance(0.3) ? `_${r.int(1, 9)}` : ''}`;

/** A sentence of plain prose (no characters MDX would read as JSX or expressions). */
export function sentence(r: Random): string {
  return r.pick([
    () => `${cap(r.pick(VERBS))} the ${noun(r)} from the dashboard or through the API.`,
    () => `Each ${noun(r)} belongs to one ${noun(r)} and keeps its settings when you ${r.pick(VERBS)} it.`,
    () => `Changes apply within ${r.int(1, 60)} seconds, and the ${noun(r)} shows the new state at once.`,
    () => `Use \`${field(r)}\` to ${r.pick(VERBS)} ${aNoun(r)} without touching the others.`,
    () => `See [${nouns(r)}](${r.linkTarget?.() ?? `/${r.pick(['guides', 'reference', 'concepts'])}/${r.pick(VERBS)}`}) for the limits of each plan.`,
    () => `The ${noun(r)} is **${r.pick(['required', 'optional', 'read-only'])}** and defaults to *${r.pick(['none', 'the first one', 'your organization'])}*.`,
  ])();
}

/** A paragraph of 2-5 sentences. */
export function paragraph(r: Random): string {
  return Array.from({ length: r.int(2, 5) }, () => sentence(r)).join(' ');
}

/** Markup of one measured component (or its substitute). `fence` gives a code block and counts it. */
export function component(name: MeasuredComponent, r: Random, fence: () => string): string {
  switch (name) {
    case 'Callout': {
      const kind = r.pick(['Note', 'Warning', 'Info', 'Tip', 'Check']);
      return `<${kind}>\n  ${sentence(r)}\n</${kind}>`;
    }
    case 'Tree': {
      const folders = Array.from({ length: r.int(2, 4) }, () => `${r.pick(['src', 'docs', 'api', 'snippets', 'images', 'guides'])}/`);
      const files = () => Array.from({ length: r.int(2, 5) }, () => `  - \`${r.pick(['index', 'config', 'quickstart', 'routes', 'auth'])}.${r.pick(['mdx', 'json', 'ts', 'png'])}\``).join('\n');
      return `<AccordionGroup>\n${folders.map((f) => `<Accordion title="${f}" defaultOpen>\n\n${files()}\n\n</Accordion>`).join('\n')}\n</AccordionGroup>`;
    }
    case 'Badge':
      return `${sentence(r)} <Badge color="${r.pick(BADGE_COLORS)}">${r.pick(['Beta', 'New', 'Pro plan', 'Deprecated', 'Enterprise'])}</Badge>`;
    case 'Color':
      return Array.from({ length: r.int(3, 6) }, () => `<Badge color="${r.pick(BADGE_COLORS)}">#${r.int(0x100000, 0xffffff).toString(16)} ${r.pick(['primary', 'accent', 'muted', 'border', 'surface'])}</Badge>`).join(' ');
    case 'ResponseField':
    case 'ParamField':
      return Array.from({ length: r.int(2, 6) }, () => `<Accordion title="${field(r)}" description="${r.pick(TYPES)}${r.chance(0.4) ? ', required' : ''}">\n  ${sentence(r)}\n</Accordion>`).join('\n\n');
    case 'Card':
      return `<Card title="${cap(noun(r))}" icon="${r.pick(ICONS)}" href="${r.linkTarget?.() ?? `/${r.pick(['guides', 'reference'])}/${r.pick(VERBS)}`}">\n  ${sentence(r)}\n</Card>`;
    case 'Columns': {
      const cols = r.int(2, 3);
      return `<CardGroup cols={${cols}}>\n${Array.from({ length: cols * r.int(1, 2) }, () => `<Card title="${cap(noun(r))}" icon="${r.pick(ICONS)}">\n  ${sentence(r)}\n</Card>`).join('\n')}\n</CardGroup>`;
    }
    case 'Panel':
      return `<Card title="${cap(noun(r))}">\n  ${sentence(r)}\n</Card>`;
    case 'Icon':
      return `${sentence(r)} <Badge>${r.pick(ICONS)}</Badge>`;
    case 'Tabs':
      return `<Tabs>\n${Array.from({ length: r.int(2, 3) }, (_, k) => `<Tab title="${r.pick(['npm', 'pnpm', 'yarn', 'Dashboard', 'API', 'CLI'])} ${k + 1}">\n\n${r.chance(0.4) ? fence() : paragraph(r)}\n\n</Tab>`).join('\n')}\n</Tabs>`;
    case 'Steps':
      return `<Steps>\n${Array.from({ length: r.int(2, 5) }, () => `<Step title="${cap(r.pick(VERBS))} the ${noun(r)}">\n\n${sentence(r)}${r.chance(0.25) ? `\n\n${fence()}` : ''}\n\n</Step>`).join('\n')}\n</Steps>`;
    case 'Accordion':
      return `<Accordion title="How do I ${r.pick(VERBS)} ${aNoun(r)}?">\n\n${paragraph(r)}\n\n</Accordion>`;
    case 'Frame':
      return `<Frame caption="The ${noun(r)} settings page">\n  <img src="/images/screenshot.png" alt="${cap(noun(r))} settings" />\n</Frame>`;
    case 'RequestExample':
    case 'CodeGroup':
      return `<CodeGroup>\n\n${Array.from({ length: r.int(2, 3) }, () => fence()).join('\n\n')}\n\n</CodeGroup>`;
    case 'Visibility':
      return `<Visibility for="${r.pick(['agents', 'humans'])}">\n\n${paragraph(r)}\n\n</Visibility>`;
    case 'Update':
      return update(r, `v${r.int(1, 4)}.${r.int(0, 20)}.${r.int(0, 9)}`, false);
  }
}

/** One `<Update>` block, as changelogs are made of. */
export function update(r: Random, label: string, withCode: boolean, date?: string): string {
  const items = Array.from({ length: r.int(2, 5) }, () => `  - ${sentence(r)}`).join('\n');
  return `<Update label="${label}" description="${cap(r.pick(VERBS))} ${nouns(r)}"${date ? ` date="${date}"` : ''}>\n\n${items}${withCode ? `\n\n${codeFence(r)}` : ''}\n\n</Update>`;
}
