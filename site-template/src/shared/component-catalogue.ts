/**
 * The one catalogue of the template's built-in MDX components: for each name a page may use
 * (`components` in `components/index.ts`, sub-components as `Tree.Folder`), a one-line
 * description, its props (type, whether required, allowed values), whether it takes children,
 * the snippet an editor inserts, and the other names Mintlify uses for the same thing.
 *
 * Who reads it: the builder's list of known element names (`COMPONENT_NAMES` in
 * `components/names.ts` is made from it), the web editor's autocomplete and slash menu (it runs
 * in the browser: this file is data only, no imports), and the component reference
 * (`docs/components.md`). A test fails when a component the template offers is missing here or
 * an entry names one that does not exist, and when a component reads a prop this list omits.
 *
 * Snippets use the field syntax of CodeMirror and TextMate: `${1:Title}` is the first place the
 * cursor stops, with `Title` selected; `${}` is a stop with no text.
 */

/**
 * What a prop holds: `text` (a string or JSX shown as text), `string`, `number`, `boolean`,
 * `icon` (an icon name, image URL or emoji), `link` (a page path or URL), `color` (a CSS colour),
 * `lines` (line numbers such as `"1,3-5"`), `json` (any value written as `{…}`).
 */
export type CatalogueProp = {
  name: string;
  type: 'text' | 'string' | 'number' | 'boolean' | 'icon' | 'link' | 'color' | 'lines' | 'json';
  required?: boolean;
  /** The only values the component honours (others fall back to its default). */
  values?: readonly string[];
  /** The value used when the prop is absent, as written in a page. */
  default?: string;
  description: string;
};

/** One built-in component. */
export type CatalogueEntry = {
  /** The element name in a page (`Tree.Folder` for a sub-component). */
  name: string;
  description: string;
  props: readonly CatalogueProp[];
  /** True when content between its tags is shown (otherwise it is written self-closing). */
  children: boolean;
  /** What an editor inserts, with `${n:text}` fields. */
  snippet: string;
  /** Other names Mintlify uses for the same component (`CardGroup` is now `Columns`). */
  aliases: readonly string[];
  /** Where it belongs, for grouping in menus. */
  group: 'callout' | 'layout' | 'navigation' | 'content' | 'api' | 'code';
};

const ICON_TYPES = ['solid', 'regular', 'brands'] as const;

const icon = (what: string): CatalogueProp[] => [
  { name: 'icon', type: 'icon', description: `Icon ${what}: an icon name (Lucide or Font Awesome), an image URL or an emoji.` },
  { name: 'iconType', type: 'string', values: ICON_TYPES, description: 'Font Awesome style of the icon.' },
];

const CALLOUT_KINDS = ['note', 'tip', 'warning', 'info', 'check', 'danger'] as const;

const calloutProps: CatalogueProp[] = [
  { name: 'title', type: 'text', description: 'A heading inside the callout.' },
  ...icon('replacing the kind\'s icon'),
  { name: 'color', type: 'color', description: 'Accent colour replacing the kind\'s colour.' },
];

const callout = (name: string, kind: string, description: string): CatalogueEntry => ({
  name, description, props: calloutProps, children: true, group: 'callout', aliases: ['Callout'],
  snippet: `<${name}>\n  \${1:${kind} text}\n</${name}>`,
});

const fieldProps: CatalogueProp[] = [
  { name: 'type', type: 'string', description: 'The value\'s type, shown beside its name (`string`, `integer`, `object`…).' },
  { name: 'required', type: 'boolean', description: 'Marks it required.' },
  { name: 'default', type: 'json', description: 'The default value, shown after the type.' },
  { name: 'deprecated', type: 'boolean', description: 'Marks it deprecated.' },
];

/** Every built-in component, in the order of `components/index.ts`. */
export const COMPONENT_CATALOGUE: readonly CatalogueEntry[] = [
  {
    name: 'Callout', description: 'A highlighted aside of any kind, with an optional title and icon.', group: 'callout', aliases: [], children: true,
    props: [
      { name: 'type', type: 'string', values: CALLOUT_KINDS, default: 'note', description: 'The kind: its colour, icon and spoken label.' },
      { name: 'kind', type: 'string', values: CALLOUT_KINDS, description: 'Synonym of `type`.' },
      ...calloutProps,
    ],
    snippet: '<Callout type="${1:note}">\n  ${2:Text}\n</Callout>',
  },
  callout('Note', 'Note', 'A note callout: extra information beside the text.'),
  callout('Tip', 'Tip', 'A tip callout: advice that helps.'),
  callout('Warning', 'Warning', 'A warning callout: something to be careful about.'),
  callout('Info', 'Info', 'An info callout: background worth knowing.'),
  callout('Check', 'Success', 'A success callout: a step done or a condition met.'),
  callout('Danger', 'Danger', 'A danger callout: destructive or irreversible actions.'),
  {
    name: 'Tabs', description: 'Panels of content behind tabs (`<Tab>` children).', group: 'layout', aliases: [], children: true,
    props: [{ name: 'defaultIndex', type: 'number', default: '0', description: 'The tab shown first (from 0).' }],
    snippet: '<Tabs>\n  <Tab title="${1:First}">\n    ${2:Content}\n  </Tab>\n  <Tab title="${3:Second}">\n    ${4:Content}\n  </Tab>\n</Tabs>',
  },
  {
    name: 'Tab', description: 'One panel of `<Tabs>`.', group: 'layout', aliases: [], children: true,
    props: [{ name: 'title', type: 'text', required: true, description: 'The tab\'s label; also its anchor id.' }, ...icon('before the label')],
    snippet: '<Tab title="${1:Title}">\n  ${2:Content}\n</Tab>',
  },
  {
    name: 'CodeGroup', description: 'Code blocks shown as tabs, labelled by each block\'s title or language.', group: 'code', aliases: [], children: true, props: [],
    snippet: '<CodeGroup>\n```${1:bash} ${2:npm}\n${3:npm install}\n```\n\n```${4:bash} ${5:yarn}\n${6:yarn add}\n```\n</CodeGroup>',
  },
  {
    name: 'Steps', description: 'A numbered procedure of `<Step>`s.', group: 'content', aliases: [], children: true,
    props: [{ name: 'titleSize', type: 'string', values: ['p', 'h2', 'h3', 'h4'], default: 'p', description: 'Element of every step title that sets none.' }],
    snippet: '<Steps>\n  <Step title="${1:First step}">\n    ${2:Do this.}\n  </Step>\n  <Step title="${3:Second step}">\n    ${4:Then this.}\n  </Step>\n</Steps>',
  },
  {
    name: 'Step', description: 'One step of `<Steps>`.', group: 'content', aliases: [], children: true,
    props: [
      { name: 'title', type: 'text', description: 'The step\'s title; also its anchor id.' },
      { name: 'id', type: 'string', description: 'Anchor id (default: from the title).' },
      ...icon('replacing the number'),
      { name: 'stepNumber', type: 'number', description: 'The number shown instead of the counted one.' },
      { name: 'titleSize', type: 'string', values: ['p', 'h2', 'h3', 'h4'], description: 'Element of the title.' },
      { name: 'noAnchor', type: 'boolean', description: 'No anchor id.' },
    ],
    snippet: '<Step title="${1:Title}">\n  ${2:Content}\n</Step>',
  },
  {
    name: 'Card', description: 'A boxed summary with a title and icon; the whole card is a link with `href`.', group: 'navigation', aliases: [], children: true,
    props: [
      { name: 'title', type: 'text', description: 'The card\'s title.' },
      { name: 'href', type: 'link', description: 'Where the card leads: a page path or URL.' },
      ...icon('above the title'),
      { name: 'color', type: 'color', description: 'Colour of the icon.' },
      { name: 'img', type: 'link', description: 'A cover image URL or path.' },
      { name: 'horizontal', type: 'boolean', description: 'Icon and title side by side.' },
      { name: 'cta', type: 'string', description: 'Call-to-action text at the bottom.' },
      { name: 'arrow', type: 'boolean', description: 'Show an arrow (default: for links to other sites).' },
    ],
    snippet: '<Card title="${1:Title}" icon="${2:rocket}" href="${3:/}">\n  ${4:Description}\n</Card>',
  },
  {
    name: 'CardGroup', description: 'Cards in a grid of columns.', group: 'layout', aliases: ['Columns'], children: true,
    props: [{ name: 'cols', type: 'number', values: ['1', '2', '3', '4'], default: '2', description: 'Columns per row (one on narrow screens).' }],
    snippet: '<CardGroup cols={${1:2}}>\n  <Card title="${2:First}" href="${3:/}">\n    ${4:Description}\n  </Card>\n  <Card title="${5:Second}" href="${6:/}">\n    ${7:Description}\n  </Card>\n</CardGroup>',
  },
  {
    name: 'Accordion', description: 'A section that opens and closes, closed by default.', group: 'content', aliases: [], children: true,
    props: [
      { name: 'title', type: 'text', required: true, description: 'What the closed accordion shows; also its anchor id.' },
      { name: 'description', type: 'text', description: 'A line under the title.' },
      { name: 'defaultOpen', type: 'boolean', default: 'false', description: 'Open when the page loads.' },
      { name: 'id', type: 'string', description: 'Anchor id (default: from the title).' },
      ...icon('before the title'),
    ],
    snippet: '<Accordion title="${1:Title}">\n  ${2:Content}\n</Accordion>',
  },
  {
    name: 'AccordionGroup', description: 'Accordions joined into one bordered list.', group: 'content', aliases: [], children: true, props: [],
    snippet: '<AccordionGroup>\n  <Accordion title="${1:First}">\n    ${2:Content}\n  </Accordion>\n  <Accordion title="${3:Second}">\n    ${4:Content}\n  </Accordion>\n</AccordionGroup>',
  },
  {
    name: 'Frame', description: 'A framed figure for screenshots and diagrams, with a caption.', group: 'content', aliases: [], children: true,
    props: [
      { name: 'caption', type: 'text', description: 'Text under the figure.' },
      { name: 'hint', type: 'text', description: 'Text above the figure.' },
      { name: 'src', type: 'link', description: 'An image to frame, without writing `<img>`.' },
      { name: 'srcDark', type: 'link', description: 'The image in dark mode.' },
      { name: 'alt', type: 'string', description: 'Alternative text of `src`.' },
    ],
    snippet: '<Frame caption="${1:Caption}">\n  ${2:![Alt text](/images/screenshot.png)}\n</Frame>',
  },
  {
    name: 'Badge', description: 'A small inline label.', group: 'content', aliases: [], children: true,
    props: [
      { name: 'color', type: 'string', values: ['gray', 'blue', 'green', 'yellow', 'red', 'purple', 'orange', 'white', 'surface'], default: 'gray', description: 'Colour of the badge.' },
      { name: 'size', type: 'string', values: ['xs', 'sm', 'md', 'lg'], description: 'Size of the badge.' },
      { name: 'shape', type: 'string', values: ['rounded', 'pill'], description: 'Corners of the badge.' },
      { name: 'stroke', type: 'boolean', description: 'An outline instead of a fill.' },
      { name: 'disabled', type: 'boolean', description: 'Shown as disabled.' },
      ...icon('before the text'),
      { name: 'className', type: 'string', description: 'Accepted for Mintlify pages; not rendered.' },
    ],
    snippet: '<Badge color="${1:blue}">${2:New}</Badge>',
  },
  {
    name: 'Update', description: 'A changelog entry with a label and date; the page\'s RSS feed is made from them.', group: 'content', aliases: [], children: true,
    props: [
      { name: 'label', type: 'text', description: 'The entry\'s heading; also its anchor id.' },
      { name: 'description', type: 'text', description: 'A line under the label.' },
      { name: 'date', type: 'string', description: 'The date (ISO or free text).' },
      { name: 'tags', type: 'json', description: 'Tags shown under the label and offered as a filter (`{["API"]}`).' },
      { name: 'rss', type: 'json', description: 'Text for the RSS item only.' },
    ],
    snippet: '<Update label="${1:v1.0.0}" description="${2:What changed}">\n  ${3:Details}\n</Update>',
  },
  {
    name: 'Visibility', description: 'Content for people only or for AI agents only.', group: 'content', aliases: [], children: true,
    props: [{ name: 'for', type: 'string', required: true, values: ['humans', 'agents'], description: 'Who sees the content.' }],
    snippet: '<Visibility for="${1:agents}">\n  ${2:Content}\n</Visibility>',
  },
  {
    name: 'Icon', description: 'An icon in running text.', group: 'content', aliases: [], children: false,
    props: [
      { name: 'icon', type: 'icon', required: true, description: 'An icon name (Lucide or Font Awesome), an image URL or an emoji.' },
      { name: 'iconType', type: 'string', values: ICON_TYPES, description: 'Font Awesome style of the icon.' },
      { name: 'color', type: 'color', description: 'Colour (default: the text colour).' },
      { name: 'size', type: 'number', description: 'Size in pixels.' },
    ],
    snippet: '<Icon icon="${1:rocket}" />',
  },
  {
    name: 'Columns', description: 'A grid of any content: cards, `<Column>`s, images.', group: 'layout', aliases: ['CardGroup'], children: true,
    props: [{ name: 'cols', type: 'number', values: ['1', '2', '3', '4'], default: '2', description: 'Columns per row (one on narrow screens).' }],
    snippet: '<Columns cols={${1:2}}>\n  ${2:Content}\n</Columns>',
  },
  {
    name: 'Column', description: 'One cell of `<Columns>` holding several blocks.', group: 'layout', aliases: [], children: true, props: [],
    snippet: '<Column>\n  ${1:Content}\n</Column>',
  },
  {
    name: 'Panel', description: 'Content set apart beside the page\'s flow.', group: 'layout', aliases: [], children: true, props: [],
    snippet: '<Panel>\n  ${1:Content}\n</Panel>',
  },
  {
    name: 'Tile', description: 'A visual preview tile, a link with `href`; its content is the preview.', group: 'navigation', aliases: [], children: true,
    props: [
      { name: 'title', type: 'text', description: 'Title under the preview.' },
      { name: 'description', type: 'text', description: 'Line under the title.' },
      { name: 'href', type: 'link', description: 'Where the tile leads.' },
    ],
    snippet: '<Tile title="${1:Title}" href="${2:/}">\n  ${3:![Preview](/images/preview.png)}\n</Tile>',
  },
  {
    name: 'View', description: 'One variant of the page\'s content (e.g. per language), chosen in one selector.', group: 'layout', aliases: [], children: true,
    props: [{ name: 'title', type: 'text', description: 'The variant\'s name in the selector.' }, ...icon('beside the title')],
    snippet: '<View title="${1:JavaScript}">\n  ${2:Content}\n</View>',
  },
  {
    name: 'PreviewButton', description: 'A call-to-action button link.', group: 'navigation', aliases: [], children: true,
    props: [{ name: 'href', type: 'link', description: 'Where the button leads.' }, ...icon('before the text')],
    snippet: '<PreviewButton href="${1:https://}">${2:Open preview}</PreviewButton>',
  },
  {
    name: 'Prompt', description: 'A prompt for an AI assistant with a copy button.', group: 'content', aliases: [], children: true,
    props: [
      { name: 'description', type: 'text', description: 'Shown as its title.' },
      { name: 'title', type: 'text', description: 'Title (wins over `description`).' },
      ...icon('beside the title'),
      { name: 'actions', type: 'json', description: 'Accepted for Mintlify pages; not rendered.' },
    ],
    snippet: '<Prompt description="${1:Title}">\n  ${2:Prompt text}\n</Prompt>',
  },
  {
    name: 'ParamField', description: 'An API parameter with its location, type and constraints.', group: 'api', aliases: [], children: true,
    props: [
      { name: 'path', type: 'string', description: 'Name of a path parameter.' },
      { name: 'query', type: 'string', description: 'Name of a query parameter.' },
      { name: 'body', type: 'string', description: 'Name of a body field.' },
      { name: 'header', type: 'string', description: 'Name of a header.' },
      { name: 'cookie', type: 'string', description: 'Name of a cookie.' },
      ...fieldProps,
      { name: 'placeholder', type: 'string', description: 'Accepted for Mintlify pages; not rendered.' },
    ],
    snippet: '<ParamField ${1:query}="${2:name}" type="${3:string}">\n  ${4:Description}\n</ParamField>',
  },
  {
    name: 'ResponseField', description: 'A field of an API response.', group: 'api', aliases: [], children: true,
    props: [
      { name: 'name', type: 'string', required: true, description: 'The field\'s name.' },
      ...fieldProps,
      { name: 'pre', type: 'json', description: 'Labels before the type (`{["beta"]}`).' },
      { name: 'post', type: 'json', description: 'Labels after the type.' },
    ],
    snippet: '<ResponseField name="${1:name}" type="${2:string}">\n  ${3:Description}\n</ResponseField>',
  },
  {
    name: 'Expandable', description: 'Nested fields behind a disclosure.', group: 'api', aliases: [], children: true,
    props: [
      { name: 'title', type: 'text', default: 'properties', description: 'What is shown ("Show properties").' },
      { name: 'defaultOpen', type: 'boolean', default: 'false', description: 'Open when the page loads.' },
    ],
    snippet: '<Expandable title="${1:properties}">\n  ${2:Fields}\n</Expandable>',
  },
  {
    name: 'RequestExample', description: 'Example requests of an API page, as tabbed code blocks.', group: 'api', aliases: [], children: true, props: [],
    snippet: '<RequestExample>\n```${1:bash} ${2:cURL}\n${3:curl https://api.example.com}\n```\n</RequestExample>',
  },
  {
    name: 'ResponseExample', description: 'Example responses of an API page, as tabbed code blocks.', group: 'api', aliases: [], children: true, props: [],
    snippet: '<ResponseExample>\n```${1:json} ${2:200}\n{ "id": "${3:123}" }\n```\n</ResponseExample>',
  },
  {
    name: 'Tree', description: 'A file tree of `<Tree.Folder>` and `<Tree.File>`.', group: 'content', aliases: ['FileTree'], children: true, props: [],
    snippet: '<Tree>\n  <Tree.Folder name="${1:src}" defaultOpen>\n    <Tree.File name="${2:index.ts}" />\n  </Tree.Folder>\n</Tree>',
  },
  {
    name: 'Tree.Folder', description: 'A folder of a file tree.', group: 'content', aliases: [], children: true,
    props: [
      { name: 'name', type: 'string', description: 'The folder\'s name.' },
      { name: 'defaultOpen', type: 'boolean', default: 'false', description: 'Open when the page loads.' },
      { name: 'openable', type: 'boolean', default: 'true', description: '`{false}`: shown open without a toggle.' },
    ],
    snippet: '<Tree.Folder name="${1:folder}">\n  ${2}\n</Tree.Folder>',
  },
  {
    name: 'Tree.File', description: 'A file of a file tree.', group: 'content', aliases: [], children: false,
    props: [{ name: 'name', type: 'string', description: 'The file\'s name.' }],
    snippet: '<Tree.File name="${1:file.md}" />',
  },
  {
    name: 'FileTree', description: 'A file tree from `<FileTree.*>` children or a nested Markdown list.', group: 'content', aliases: ['Tree'], children: true, props: [],
    snippet: '<FileTree>\n- ${1:src}\n  - ${2:index.ts}\n</FileTree>',
  },
  {
    name: 'FileTree.Folder', description: 'A folder of a file tree.', group: 'content', aliases: ['Tree.Folder'], children: true,
    props: [
      { name: 'name', type: 'string', description: 'The folder\'s name.' },
      { name: 'defaultOpen', type: 'boolean', default: 'false', description: 'Open when the page loads.' },
      { name: 'openable', type: 'boolean', default: 'true', description: '`{false}`: shown open without a toggle.' },
    ],
    snippet: '<FileTree.Folder name="${1:folder}">\n  ${2}\n</FileTree.Folder>',
  },
  {
    name: 'FileTree.File', description: 'A file of a file tree.', group: 'content', aliases: ['Tree.File'], children: false,
    props: [{ name: 'name', type: 'string', description: 'The file\'s name.' }],
    snippet: '<FileTree.File name="${1:file.md}" />',
  },
  {
    name: 'Color', description: 'A colour palette of `<Color.Item>`s or `<Color.Row>`s.', group: 'content', aliases: [], children: true,
    props: [{ name: 'variant', type: 'string', values: ['compact', 'table'], default: 'compact', description: 'Swatches in a row or a table.' }],
    snippet: '<Color variant="${1:compact}">\n  <Color.Item name="${2:primary}" value="${3:#0d9373}" />\n</Color>',
  },
  {
    name: 'Color.Item', description: 'One swatch: the colour, its name and value.', group: 'content', aliases: [], children: false,
    props: [{ name: 'name', type: 'string', description: 'The colour\'s name.' }, { name: 'value', type: 'color', description: 'Any CSS colour.' }],
    snippet: '<Color.Item name="${1:primary}" value="${2:#0d9373}" />',
  },
  {
    name: 'Color.Row', description: 'A labelled row of swatches.', group: 'content', aliases: [], children: true,
    props: [{ name: 'title', type: 'string', description: 'The row\'s label.' }],
    snippet: '<Color.Row title="${1:Brand}">\n  ${2}\n</Color.Row>',
  },
  {
    name: 'GitHub', description: 'A group of `<GitHub.Repo>` cards.', group: 'navigation', aliases: [], children: true, props: [],
    snippet: '<GitHub>\n  <GitHub.Repo repo="${1:owner/name}" />\n</GitHub>',
  },
  {
    name: 'GitHub.Repo', description: 'A card for a GitHub repository (static: it never calls GitHub).', group: 'navigation', aliases: [], children: true,
    props: [
      { name: 'repo', type: 'string', description: 'The repository as `owner/name`.' },
      { name: 'description', type: 'text', description: 'What the repository is.' },
      { name: 'href', type: 'link', description: 'Where the card leads (default: the repository on github.com).' },
    ],
    snippet: '<GitHub.Repo repo="${1:owner/name}" />',
  },
  {
    name: 'Tooltip', description: 'A term with an explanation shown on hover and keyboard focus.', group: 'content', aliases: [], children: true,
    props: [
      { name: 'tip', type: 'text', description: 'The explanation.' },
      { name: 'headline', type: 'text', description: 'A bold line above it.' },
      { name: 'cta', type: 'string', description: 'Text of a link inside the tip (with `href`).' },
      { name: 'href', type: 'link', description: 'Where the `cta` link leads.' },
    ],
    snippet: '<Tooltip tip="${1:Explanation}">${2:term}</Tooltip>',
  },
  {
    name: 'Mermaid', description: 'A Mermaid diagram from its source.', group: 'code', aliases: [], children: true,
    props: [{ name: 'chart', type: 'string', description: 'The diagram\'s source (or write it as the content).' }],
    snippet: '<Mermaid chart={`${1:graph TD; A-->B}`} />',
  },
  {
    name: 'CodeBlock', description: 'A code block written by a component (its code a computed string).', group: 'code', aliases: [], children: true,
    props: [
      { name: 'language', type: 'string', description: 'Language shown in the badge.' },
      { name: 'filename', type: 'string', description: 'Title of the block.' },
      ...icon('before the title'),
      { name: 'lines', type: 'boolean', description: 'Show line numbers.' },
      { name: 'wrap', type: 'boolean', description: 'Wrap long lines.' },
      { name: 'nocopy', type: 'boolean', description: 'No copy button.' },
      { name: 'expandable', type: 'boolean', description: 'Collapsed with a "Show more" button.' },
      { name: 'highlight', type: 'lines', description: 'Lines to highlight (`"1,3-5"`).' },
      { name: 'focus', type: 'lines', description: 'Lines to focus, the others dimmed.' },
    ],
    snippet: '<CodeBlock language="${1:js}" filename="${2:example.js}">\n  {`${3:code}`}\n</CodeBlock>',
  },
  {
    name: 'Link', description: 'A link, as custom components write it.', group: 'navigation', aliases: [], children: true,
    props: [{ name: 'href', type: 'link', description: 'Where the link leads.' }],
    snippet: '<Link href="${1:/}">${2:text}</Link>',
  },
];

/** The entry named `name`, or undefined. */
export function catalogueEntry(name: string): CatalogueEntry | undefined {
  return COMPONENT_CATALOGUE.find((entry) => entry.name === name);
}
