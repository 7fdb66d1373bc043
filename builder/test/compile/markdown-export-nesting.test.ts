/**
 * Every component's Markdown export inside every container, read back by a CommonMark (+ GFM)
 * parser: the blocks a reader (or an agent) gets must be the blocks the page shows. Each pair is
 * compiled as a page, written both indented (as authors nest JSX) and flat.
 */
import { readFile } from 'node:fs/promises';
import type { Nodes, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import t from 'tap';
import { isPageFailure, type CompileInput } from '../../src/compile/index.ts';
import { createCompiler } from '../../src/sandbox/index.ts';

type Blocks = RootContent[];
/** Whether the blocks hold the component's export (in the place the container puts it). */
type Check = (blocks: Blocks) => boolean;

interface Part {
  name: string;
  /** MDX of the part around `body` (at column 0), nested with `indent` spaces per level. */
  wrap(body: string, indent: number): string;
  holds(blocks: Blocks, inner: Check): boolean;
}

const textOf = (node: Nodes): string => ('value' in node ? node.value : 'children' in node ? node.children.map((c) => textOf(c as Nodes)).join('') : '');
const ind = (text: string, n: number) => text.split('\n').map((l) => (l && n ? ' '.repeat(n) + l : l)).join('\n');
const parse = (md: string) => fromMarkdown(md, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

// Leaves: what may sit in a container.
const CODE = 'const a = 1;\n\n  indented();\n// ```not a fence';
const leaves: { name: string; mdx: string | ((indent: number) => string); check: Check }[] = [
  { name: 'code fence', mdx: '```js example.js\n' + CODE + '\n```', check: (b) => b.some((n) => n.type === 'code' && n.lang === 'js' && n.meta === 'example.js' && n.value === CODE) },
  { name: 'tilde fence', mdx: '~~~md\n```\ninside\n```\n~~~', check: (b) => b.some((n) => n.type === 'code' && n.lang === 'md' && n.value === '```\ninside\n```') },
  { name: 'level-two heading', mdx: '## Level two\n\nUnder level two.', check: (b) => b.some((n, i) => n.type === 'heading' && textOf(n) === 'Level two' && textOf(b[i + 1]) === 'Under level two.') },
  { name: 'heading', mdx: '### Inner heading', check: (b) => b.some((n) => n.type === 'heading' && textOf(n) === 'Inner heading') },
  {
    name: 'nested list', mdx: '- one\n- two\n  - nested\n\n  two, continued',
    check: (b) => b.some((n) => n.type === 'list' && !n.ordered && n.children.length === 2 && textOf(n.children[0]) === 'one' &&
      n.children[1].children.some((c) => c.type === 'list' && c.children.length === 1 && textOf(c) === 'nested') &&
      n.children[1].children.some((c) => c.type === 'paragraph' && textOf(c) === 'two, continued')),
  },
  { name: 'ordered list', mdx: '1. alpha\n2. beta', check: (b) => b.some((n) => n.type === 'list' && n.ordered === true && n.children.map(textOf).join('|') === 'alpha|beta') },
  {
    name: 'table', mdx: '| Name | Value |\n| --- | --- |\n| a | 1 |',
    check: (b) => b.some((n) => n.type === 'table' && n.children.length === 2 && n.children.map((r) => r.children.map(textOf).join('|')).join('/') === 'Name|Value/a|1'),
  },
  { name: 'paragraph', mdx: 'Plain text with **bold**\nand a second line.', check: (b) => b.some((n) => n.type === 'paragraph' && n.children.some((c) => c.type === 'strong' && textOf(c) === 'bold') && textOf(n).endsWith('and a second line.')) },
  {
    name: 'block quote', mdx: '> Quoted.\n>\n> ```sh\n> quoted code\n> ```',
    check: (b) => b.some((n) => n.type === 'blockquote' && n.children.some((c) => c.type === 'code' && c.value === 'quoted code') && n.children.some((c) => textOf(c) === 'Quoted.')),
  },
  {
    name: 'file tree', mdx: '<Tree>\n  <Tree.Folder name="src">\n    <Tree.File name="index.ts" />\n  </Tree.Folder>\n</Tree>',
    check: (b) => b.some((n) => n.type === 'list' && n.children.length === 1 && textOf(n.children[0].children[0]) === 'src/' && n.children[0].children[1]?.type === 'list' && textOf(n.children[0].children[1]) === 'index.ts'),
  },
  { name: 'colour', mdx: '<Color>\n  <Color.Item name="Primary" value="#123456" />\n</Color>', check: (b) => b.some((n) => n.type === 'list' && textOf(n) === 'Primary: #123456') },
  { name: 'mermaid', mdx: '<Mermaid chart="graph TD; A-->B" />', check: (b) => b.some((n) => n.type === 'code' && n.lang === 'mermaid' && n.value === 'graph TD; A-->B') },
  { name: 'repository', mdx: '<GitHub.Repo repo="acme/rockets" description="Rockets" />', check: (b) => b.some((n) => n.type === 'paragraph' && n.children[0]?.type === 'link' && textOf(n) === 'acme/rockets: Rockets') },
  { name: 'tile', mdx: '<Tile href="/tile" title="A tile" description="About it" />', check: (b) => b.some((n) => n.type === 'paragraph' && n.children[0]?.type === 'link' && textOf(n) === 'A tile: About it') },
  { name: 'tooltip', mdx: 'Hover <Tooltip tip="a hint">here</Tooltip> now.', check: (b) => b.some((n) => n.type === 'paragraph' && textOf(n).endsWith('Hover here (a hint) now.')) },
  { name: 'image', mdx: '<img src="/pic.png" alt="A picture" />', check: (b) => b.some((n) => n.type === 'paragraph' && n.children[0]?.type === 'image' && n.children[0].url === '/pic.png') },
  { name: 'rule', mdx: 'Above.\n\n---\n\nBelow.', check: (b) => b.some((n, i) => n.type === 'thematicBreak' && textOf(b[i - 1]).endsWith('Above.') && textOf(b[i + 1]) === 'Below.') },
  { name: 'heading then fence', mdx: '#### Run it\n```sh\nrun --now\n```', check: (b) => b.some((n, i) => n.type === 'heading' && textOf(n) === 'Run it' && b[i + 1]?.type === 'code' && (b[i + 1] as { value: string }).value === 'run --now') },
  {
    name: 'snippet', mdx: '<Shared />',
    check: (b) => b.some((n, i) => n.type === 'heading' && textOf(n) === 'From a snippet' && b[i + 1]?.type === 'code' && (b[i + 1] as { value: string }).value === 'snippet code\n\n  more'),
  },
];
const SNIPPET = '## From a snippet\n\n```sh\nsnippet code\n\n  more\n```\n';

const section = (title: string, inner: Check, blocks: Blocks): boolean => {
  const at = blocks.findIndex((n) => n.type === 'heading' && textOf(n) === title);
  if (at < 0) return false;
  const depth = (blocks[at] as { depth: number }).depth;
  const end = blocks.findIndex((n, i) => i > at && n.type === 'heading' && n.depth <= depth);
  return inner(blocks.slice(at + 1, end < 0 ? undefined : end));
};
const tag = (name: string, attrs: string, body: string, indent: number) => `<${name}${attrs}>\n${ind(body, indent)}\n</${name}>`;
const plain = (name: string, attrs = ''): Part => ({ name, wrap: (body, n) => tag(name, attrs, body, n), holds: (b, inner) => inner(b) });
const grouped = (group: string, item: string, attrs: string, second: string, check: (b: Blocks, inner: Check) => boolean): Part => ({
  name: `${group}/${item}`,
  wrap: (body, n) => tag(group, '', `${tag(item, attrs, body, n)}\n${tag(item, second, 'Second body.', n)}`, n),
  holds: check,
});
const quoteStarting = (label: string | undefined): Part['holds'] => (b, inner) => b.some((n) => n.type === 'blockquote' && inner(n.children) &&
  (label === undefined || (n.children[0]?.type === 'paragraph' && n.children[0].children[0]?.type === 'strong' && textOf(n.children[0].children[0]) === label)));

const containers: Part[] = [
  grouped('Steps', 'Step', ' title="First step"', ' title="Second step"', (b, inner) => b.some((n) => n.type === 'list' && n.ordered === true && n.children.length === 2 &&
    textOf(n.children[0].children[0]) === 'First step' && inner(n.children[0].children.slice(1)) && textOf(n.children[1]).endsWith('Second body.'))),
  grouped('Tabs', 'Tab', ' title="First tab"', ' title="Second tab"', (b, inner) => section('First tab', inner, b) && section('Second tab', (s) => textOf(s[0]) === 'Second body.', b)),
  grouped('AccordionGroup', 'Accordion', ' title="First fold"', ' title="Second fold"', (b, inner) => section('First fold', inner, b) && section('Second fold', (s) => textOf(s[0]) === 'Second body.', b)),
  grouped('CardGroup', 'Card', ' title="First card" href="/first"', ' title="Second card"', (b, inner) => {
    const at = b.findIndex((n) => n.type === 'paragraph' && n.children[0]?.type === 'strong' && n.children[0].children[0]?.type === 'link' && textOf(n) === 'First card');
    return at >= 0 && inner(b.slice(at + 1)) && b.some((n) => textOf(n) === 'Second card');
  }),
  grouped('Columns', 'Column', '', '', (b, inner) => inner(b) && b.some((n) => textOf(n) === 'Second body.')),
  { name: 'Accordion', wrap: (body, n) => tag('Accordion', ' title="Alone"', body, n), holds: (b, inner) => section('Alone', inner, b) },
  { name: 'View', wrap: (body, n) => tag('View', ' title="A view"', body, n), holds: (b, inner) => section('A view', inner, b) },
  { name: 'Update', wrap: (body, n) => tag('Update', ' label="v2.0" description="Big release"', body, n), holds: (b, inner) => section('v2.0', inner, b) },
  ...['Note', 'Tip', 'Warning', 'Info', 'Check', 'Danger'].map((name): Part => ({ name, wrap: (body, n) => tag(name, '', body, n), holds: quoteStarting(`${name}:`) })),
  { name: 'Callout', wrap: (body, n) => tag('Callout', ' title="Heads up"', body, n), holds: quoteStarting('Heads up') },
  { name: 'Prompt', wrap: (body, n) => tag('Prompt', ' description="Ask this"', body, n), holds: quoteStarting(undefined) },
  { name: 'Card', wrap: (body, n) => tag('Card', ' title="Lone card"', body, n), holds: (b, inner) => b.some((n) => textOf(n) === 'Lone card') && inner(b) },
  { name: 'Frame', wrap: (body, n) => tag('Frame', ' caption="A caption"', body, n), holds: (b, inner) => inner(b) && b.some((n) => textOf(n) === 'A caption') },
  { name: 'ParamField', wrap: (body, n) => tag('ParamField', ' query="limit" type="number"', body, n), holds: (b, inner) => inner(b) && b.some((n) => textOf(n) === 'limit (query, number)') },
  { name: 'ResponseField', wrap: (body, n) => tag('ResponseField', ' name="id" type="string"', body, n), holds: (b, inner) => inner(b) && b.some((n) => textOf(n) === 'id (string)') },
  plain('Expandable', ' title="properties"'), plain('Panel'), plain('Visibility', ' for="agents"'),
  plain('CodeGroup'), plain('RequestExample'), plain('ResponseExample'),
];

// What goes inside each container: every leaf, and every container holding a fence.
const code = leaves[0] as { mdx: string; check: Check };
const components = [
  ...leaves,
  ...containers.map((c) => ({ name: `${c.name}(code fence)`, mdx: (indent: number) => c.wrap(code.mdx, indent), check: (b: Blocks) => c.holds(b, code.check) })),
];

t.test('markdownExport nesting', async (t) => {
  const compiler = await createCompiler({ workers: 0 });
  t.teardown(() => compiler.close());

  t.test('should read back every component inside every container as the blocks the page shows', async (t) => {
    const cases = containers.flatMap((outer) => components.flatMap((inner) => [2, 0].map((indent) => ({ outer, inner, indent }))));
    const inputs: CompileInput[] = cases.map(({ outer, inner, indent }, i) => ({
      sourcePath: `docs/pair-${i}.mdx`,
      source: `---\ntitle: Pair\n---\n\nimport Shared from '/snippets/shared.mdx';\n\n${outer.wrap(typeof inner.mdx === 'string' ? inner.mdx : inner.mdx(indent), indent)}\n\n## After\n\nTail paragraph.\n`,
      contentRoot: 'docs/',
    }));
    const results = await compiler.compile(inputs, { readFile: async (path) => (path === 'snippets/shared.mdx' ? SNIPPET : undefined) });
    const wrong: string[] = [];
    results.forEach((result, i) => {
      const { outer, inner, indent } = cases[i];
      const label = `${outer.name} > ${inner.name}${indent ? '' : ' (flat)'}`;
      if (isPageFailure(result)) return wrong.push(`${label}: page failed: ${result.message}`);
      const blocks = parse(result.markdown).children;
      const after = blocks.findIndex((n) => n.type === 'heading' && n.depth === 2 && textOf(n) === 'After');
      const ok = after > 0 && textOf(blocks[after + 1] ?? { type: 'text', value: '' }) === 'Tail paragraph.' && after === blocks.length - 2 &&
        blocks[0].type === 'heading' && textOf(blocks[0]) === 'Pair' && outer.holds(blocks.slice(1, after), inner.check);
      if (!ok) wrong.push(`${label}:\n${result.markdown}`);
    });
    t.same(wrong, [], `${cases.length} pages`);
  });

  t.test('should keep a list apart from a list next to it that another component wrote', async (t) => {
    const step = (title: string) => `<Steps>\n  <Step title="${title}">\n    Body.\n  </Step>\n</Steps>`;
    const pages: [string, number[]][] = [
      [`${step('A')}\n\n1. foo\n2. bar`, [1, 2]],
      [`${step('A')}\n\n${step('B')}`, [1, 1]],
      ['- a\n- b\n\n<Tree>\n  <Tree.File name="x.ts" />\n</Tree>', [2, 1]],
      ['- a\n\n<Visibility for="humans">\nOnly on the page.\n</Visibility>\n\n- b', [1, 1]],
      ['<Note>\n  - a\n</Note>\n\n- b', [1]],
    ];
    const results = await compiler.compile(pages.map(([body], i) => ({ sourcePath: `docs/lists-${i}.mdx`, source: `---\ntitle: Lists\n---\n\n${body}\n`, contentRoot: 'docs/' })), { readFile: async () => undefined });
    t.same(results.map((r) => (isPageFailure(r) ? r.message : parse(r.markdown).children.filter((n) => n.type === 'list').map((n) => n.children.length))), pages.map(([, counts]) => counts));
  });

  t.test('should export the example quickstart with its fences closed inside the steps', async (t) => {
    const root = new URL('../../examples/acme-docs/', import.meta.url);
    const source = await readFile(new URL('docs/quickstart.mdx', root), 'utf8');
    const [result] = await compiler.compile([{ sourcePath: 'docs/quickstart.mdx', source, contentRoot: 'docs/' }], { readFile: (p) => readFile(new URL(p, root), 'utf8').catch(() => undefined) });
    if (isPageFailure(result)) throw new Error(result.message);
    t.equal(result.markdown, QUICKSTART);
    const blocks = parse(result.markdown).children;
    const steps = blocks.find((n) => n.type === 'list');
    const third = steps?.type === 'list' ? steps.children[2].children : [];
    t.same(third.map((n) => [n.type, n.type === 'code' ? n.value : textOf(n)]), [
      ['paragraph', 'Launch a test rocket'],
      ['heading', 'CLI'],
      ['code', 'acme launch --rocket test-1 --dry-run'],
      ['heading', 'Node.js'],
      ['code', "import { Acme } from '@acme/rockets';\n\nconst acme = new Acme({ apiKey: process.env.ACME_API_KEY });\nawait acme.launches.create({ rocket: 'test-1', dryRun: true });"],
    ]);
    t.same(blocks.filter((n) => n.type === 'heading').map(textOf), ['Quickstart', 'Next steps', '2025-03-01'], 'nothing after the steps is swallowed');
  });
});

const QUICKSTART = `# Quickstart

Create an API key, install the CLI and launch a test rocket.

1. **Create an API key**

   Open the dashboard and create a key under **Settings → API keys**.

   > **Note:** Keep your API key secret. Anyone holding it can launch rockets on your account.

2. **Install the CLI**

   \`\`\`bash Install the CLI
   npm install --global @acme/rockets
   \`\`\`

3. **Launch a test rocket**

   ## CLI

   \`\`\`bash
   acme launch --rocket test-1 --dry-run
   \`\`\`

   ## Node.js

   \`\`\`ts launch.ts
   import { Acme } from '@acme/rockets';

   const acme = new Acme({ apiKey: process.env.ACME_API_KEY });
   await acme.launches.create({ rocket: 'test-1', dryRun: true });
   \`\`\`

## Next steps

\`\`\`python client.py
from acme import Acme

acme = Acme(api_key="...")
print(acme.rockets.list())
\`\`\`

\`\`\`go main.go
package main

import "github.com/acme/rockets-go"

func main() {
\tclient := rockets.New("...")
\tclient.Rockets.List()
}
\`\`\`

### 2025-03-01

The CLI now supports dry runs.

\`acme launch --dry-run\` validates a launch plan without firing anything.
`;
