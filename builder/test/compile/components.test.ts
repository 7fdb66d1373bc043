import { readFile } from 'node:fs/promises';
import t from 'tap';
import { isPageFailure, type CompileInput } from '../../src/compile/index.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import type { CompiledPage } from '../../src/types.ts';

const SITE = new URL('./fixtures/mintlify/', import.meta.url);
const read = (path: string) => readFile(new URL(path, SITE), 'utf8');
const page = (sourcePath: string, source: string): CompileInput => ({ sourcePath, source, contentRoot: '' });
// Highlighted code is code-block.test.ts's concern; here only the components around it matter.
const shape = (html: string) => html.replace(/<pre class="shiki[^]*?<\/pre>/g, '<pre/>');

t.test('components', async (t) => {
  // The real build path: pages compile in a sandbox process under Node's permission model.
  const compiler = await createCompiler({ workers: 1 });
  t.teardown(() => compiler.close());
  const files: Record<string, string> = {
    'snippets/broken.jsx': 'export const Broken = ({ user }) => {\n  const greeting = "Hi";\n  return <p className="x">{greeting}, {user.profile.name}</p>;\n};\n\nexport const Lazy = () => {\n  useEffect(async () => { await 1 }, []);\n  const items = null;\n  items.forEach((i) => i);\n  return null;\n};\n',
    'snippets/counter.jsx': 'import { useMemo } from "react"\n\nexport default function Counter({ start }) {\n  const [n] = useState(start)\n  const doubled = useMemo(() => n * 2, [n])\n  useEffect(() => {})\n  return <b>{doubled}</b>\n}\n',
  };
  const ctx = { readFile: async (path: string) => files[path] };
  const one = async (source: string) => (await compiler.compile([page('page.mdx', source)], ctx))[0];
  const ok = async (source: string): Promise<CompiledPage> => {
    const result = await one(source);
    if (isPageFailure(result)) throw new Error(`unexpected failure: ${result.message}`);
    return result;
  };

  t.test('should render every component of a Mintlify page, with its Markdown export and search text', async (t) => {
    const result = await ok(await read('components.mdx'));
    t.equal(shape(result.bodyHtml!), (await read('components.expected.html')).trimEnd());
    t.equal(result.markdown, await read('components.expected.md'));
    t.equal(result.searchText, (await read('components.expected.txt')).trimEnd());
  });

  t.test('should show an unknown component\'s content in a plain container, noting its name, place and the nearest name', async (t) => {
    const critical = await ok('# Risks\n\n<Critical>\n**Protect against DNS rebinding.**\n</Critical>\n\nText <Paramfield query="limit">Max</Paramfield> and <Critical>twice</Critical>.\n');
    t.equal(critical.bodyHtml, '<h1 id="risks">Risks<a class="heading-anchor" href="#risks" aria-hidden="true" tabindex="-1">#</a></h1>\n<div data-component="Critical"><p><strong>Protect against DNS rebinding.</strong></p></div>\n<p>Text <span data-component="Paramfield">Max</span> and <span data-component="Critical">twice</span>.</p>');
    t.same(critical.notes, [
      { kind: 'component', name: 'Critical', line: 3, column: 1 },
      { kind: 'component', name: 'Paramfield', line: 7, column: 6, suggestion: 'ParamField' },
    ], 'one note per name, with its first place');
    t.match(critical.markdown, /\*\*Protect against DNS rebinding\.\*\*/, 'the export keeps the content');
    const tree = await ok('<Tree>\n  <Tree.Fodler name="a" />\n</Tree>\n\n{[1, 2].map((n) => <Widget key={n} kind="x">{n}</Widget>)}\n\nexport const Box = () => <Shiny title="t">in a component</Shiny>\n\n<Box />\n');
    t.equal(tree.bodyHtml, '<div class="tree"><ul role="tree"><div data-component="Tree.Fodler"></div></ul></div>\n<div data-component="Widget">1</div><div data-component="Widget">2</div>\n\n<div data-component="Shiny">in a component</div>');
    t.same(tree.notes?.map((n) => [n.name, n.line, n.column, n.suggestion]), [['Tree.Fodler', 2, 3, 'Tree.Folder'], ['Widget', 5, 20, undefined], ['Shiny', 7, 26, undefined]]);
  });

  t.test('should accept components the page defines or imports', async (t) => {
    const result = await ok('import Counter from "/snippets/counter.jsx"\n\nexport const Hello = ({ name }) => <i>Hi {name}</i>\n\n<Hello name="Ada" /> <Counter start={2} />\n');
    t.equal(result.bodyHtml, '<i>Hi Ada</i>\n<folio-island data-c="Counter" data-p="{&quot;start&quot;:2}"><b>4</b></folio-island>', 'a hook component is an island');
  });

  t.test('should give pages and snippets React hooks without an import, and from react', async (t) => {
    t.equal((await ok('export function Clicks() {\n  const [n] = useState(3)\n  const ref = useRef(null)\n  return <span ref={ref}>{n}</span>\n}\n\n<Clicks />\n')).bodyHtml, '<folio-island data-c="Clicks" data-p="{}"><span>3</span></folio-island>');
    t.equal((await ok('import React, { useState as state } from "react"\n\n{state(5)[0]} {React.createElement("em", null, "x")}\n')).bodyHtml, '5\n<em>x</em>');
    t.equal((await ok('export const useState = () => ["own"]\n\n{useState()[0]}\n')).bodyHtml, 'own', 'a page\'s own binding wins');
  });

  t.test('should take JSX as a prop value', async (t) => {
    const result = await ok('<Steps>\n  <Step title={<>Install <code>acme</code></>}>Run it.</Step>\n</Steps>\n\n<Accordion title={<b>Why</b>}>Because.</Accordion>\n');
    t.equal(result.bodyHtml, '<ol class="steps"><li class="step" id="install-acme"><p class="step-title">Install <code>acme</code></p><div class="step-body">Run it.</div></li></ol>\n<details class="accordion" id="why"><summary><span class="accordion-title"><b>Why</b></span></summary><div class="accordion-body">Because.</div></details>');
    t.equal(result.markdown, '# page\n\n1. **Install acme**\n\n   Run it.\n\n## Why\n\nBecause.\n');
  });

  t.test('should give errors thrown while a component renders the place of the code that threw', async (t) => {
    const own = 'import { Broken } from "/snippets/broken.jsx"\n\nexport const Boom = ({ items }) => {\n  const first = items[0];\n  return <b>{first.label}</b>;\n};\n\n# T\n\n';
    t.same(await one(`${own}<Boom items={[]} />\n`), { sourcePath: 'page.mdx', message: "Unexpected error while running the page: Cannot read properties of undefined (reading 'label')", line: 5, column: 14 }, 'in the page\'s own component');
    t.same(await one(`${own}<Broken />\n`), { sourcePath: 'page.mdx', message: "snippets/broken.jsx:3:40: Unexpected error while running the page: Cannot read properties of undefined (reading 'profile')" }, 'in a snippet: its file and place');
    t.same(await one('import { Lazy } from "/snippets/broken.jsx"\n\n<Lazy />\n'), { sourcePath: 'page.mdx', message: "snippets/broken.jsx:9:3: Unexpected error while running the page: Cannot read properties of null (reading 'forEach')" }, 'beside code that awaits');
    t.same(await one(`${own}<Boom items={[{ label: 'ok' }]} /> <Broken user={{ profile: { name: 'Ada' } }} />\n`).then((r) => (r as CompiledPage).bodyHtml), '<h1 id="t">T<a class="heading-anchor" href="#t" aria-hidden="true" tabindex="-1">#</a></h1>\n<b>ok</b>\n<folio-island data-c="Broken" data-p="{&quot;user&quot;:{&quot;profile&quot;:{&quot;name&quot;:&quot;Ada&quot;}}}"><p class="x">Hi, Ada</p></folio-island>', 'and they render as before');
  });

  t.test('should give runtime errors the place of the expression that threw', async (t) => {
    t.same(await one('# T\n\nText {[].at(0).value}\n'), { sourcePath: 'page.mdx', message: "Unexpected error while running the page: Cannot read properties of undefined (reading 'value')", line: 3, column: 6 });
    t.same(await one('# T\n\n<Card title={nope.x}>b</Card>\n'), { sourcePath: 'page.mdx', message: 'Unexpected error while running the page: nope is not defined', line: 3, column: 7 });
    t.same(await one('<Steps>\n  <Step title={<>Hi {zz.q}</>}>x</Step>\n</Steps>\n'), { sourcePath: 'page.mdx', message: 'Unexpected error while running the page: zz is not defined', line: 2, column: 9 });
    t.equal((await ok('ok {1 + 1}\n\n{/* a comment */}\n\n<Card title={"a"} {...{ href: "/x" }}>b</Card>\n')).bodyHtml, '<p>ok 2</p>\n\n<a class="card" href="/x"><span class="card-title">a</span><div class="card-body">b</div></a>', 'expressions that do not throw are unchanged');
  });

  t.test('should show an expression in prose that names nothing as written, noting it', async (t) => {
    const page = await ok('# Status\n\nFix the path from /{kickoff_id}/status to /status/{kickoff_id}.\n\n{crew.name}\n\nexport const n = 2\n\nKept: {n * 2} {typeof later} {Math.max(1, 3)} {[1].map((x) => x + 1)}\n');
    t.equal(page.bodyHtml, '<h1 id="status">Status<a class="heading-anchor" href="#status" aria-hidden="true" tabindex="-1">#</a></h1>\n<p>Fix the path from /{kickoff_id}/status to /status/{kickoff_id}.</p>\n<p>{crew.name}</p>\n\n<p>Kept: 4 undefined 3 2</p>');
    t.same(page.notes, [
      { kind: 'expression', name: 'kickoff_id', line: 3, column: 20 },
      { kind: 'expression', name: 'kickoff_id', line: 3, column: 51 },
      { kind: 'expression', name: 'crew.name', line: 5, column: 1 },
    ]);
    t.match(page.markdown, 'Fix the path from /{kickoff_id}/status to /status/{kickoff_id}.', 'the export shows it as written too');
    t.match(page.searchText, '/{kickoff_id}/status');
    t.equal((await ok('Plain {1 + 1}\n')).notes, undefined, 'no note when nothing is undefined');
  });

  t.test('should render icons by name from Lucide and Font Awesome, and nothing for an unknown name', async (t) => {
    const html = (await ok('<Icon icon="rocket" /> <Icon icon="github" /> <Icon icon="flag" iconType="regular" color="#f00" size={24} /> <Icon icon="no-such-icon" /> <Icon icon="🚀" />\n')).bodyHtml!;
    const svgs = [...html.matchAll(/<svg [^>]*>/g)].map((m) => m[0]);
    t.same(svgs.map((s) => /data-icon="([^"]+)"/.exec(s)?.[1]), ['rocket', 'github', 'flag']);
    t.match(svgs[0], /viewBox="0 0 24 24"[^>]*stroke="currentColor"/, 'Lucide: stroked');
    t.match(svgs[1], /viewBox="0 0 512 512"[^>]*fill="currentColor"/, 'Font Awesome brands: filled');
    t.match(svgs[2], /viewBox="0 0 448 512".*style="color:#f00;width:24px;height:24px"/);
    t.notMatch(html, /no-such-icon/);
    t.match(html, /<span class="icon icon-inline" aria-hidden="true">🚀<\/span>$/);
  });
});
