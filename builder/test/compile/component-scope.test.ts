import t from 'tap';
import { parseAst } from 'vite';
import { componentScopePrelude, unboundComponents } from '../../src/compile/component-scope.ts';
import { isPageFailure, type CompileInput } from '../../src/compile/index.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import type { CompiledPage } from '../../src/types.ts';

const page = (sourcePath: string, source: string): CompileInput => ({ sourcePath, source, contentRoot: '' });
const jsx = (code: string) => parseAst(code, { lang: 'jsx' });

t.test('component-scope', async (t) => {
  t.test('should find built-in components a module names without binding them at its top level', async (t) => {
    t.same(unboundComponents(jsx('export const Box = () => <Note>hi <Icon icon="x" /></Note>;')), ['Icon', 'Note']);
    t.same(unboundComponents(jsx('export const Box = () => <Tree.Folder name="a" />;')), ['Tree']);
    t.same(unboundComponents(jsx('import { Note } from "./mine.jsx";\nexport const Box = () => <Note />;')), [], 'an import wins');
    t.same(unboundComponents(jsx('function Card() { return null }\nexport const Box = () => <Card />;')), [], 'a declaration wins');
    t.same(unboundComponents(jsx('const a = { Note: 1 }; a.Note; <b Note="x" />;')), [], 'keys, properties and attribute names are not references');
    t.same(unboundComponents(jsx('const x = [Steps, { Tip }];')), ['Steps', 'Tip'], 'plain identifiers are references');
  });

  t.test('should write the binding on one line, and nothing when none is needed', async (t) => {
    t.equal(componentScopePrelude([]), '');
    t.notMatch(componentScopePrelude(['Icon', 'Note']), /\n/);
    t.match(componentScopePrelude(['Icon', 'Note']), /const \{ Icon, Note \} = __folio_components__;$/);
  });

  const compiler = await createCompiler({ workers: 1 });
  t.teardown(() => compiler.close());
  const files: Record<string, string> = {
    'snippets/note-box.mdx': 'export const NoteBox = ({ children }) => (<Note>{children} <Icon icon="check" /></Note>);\n',
    'snippets/tabs.jsx': 'export const TabBox = () => (\n  <Tabs><Tab title="A">first <Card title="c" /></Tab></Tabs>\n);\n',
    'snippets/own-note.jsx': 'export const Note = ({ children }) => <div class="mine">{children}</div>;\nexport const Wrap = () => <Note>wrapped</Note>;\n',
    '_snippets/plain.mdx': '<Tip>from the snippet</Tip>\n',
    'snippets/greeting.mdx': 'Hello **{name}**, today is {Math.max(1, 2)}.\n',
  };
  const ctx = { readFile: async (path: string) => files[path] };
  const ok = async (source: string): Promise<CompiledPage> => {
    const result = (await compiler.compile([page('page.mdx', source)], ctx))[0];
    if (isPageFailure(result)) throw new Error(`unexpected failure: ${result.message}`);
    return result;
  };

  t.test('should give components the page defines in ESM every built-in component', async (t) => {
    const html = (await ok('export const Box = ({ children }) => (<Warning>{children} <Icon icon="rocket" /></Warning>);\n\n<Box>careful</Box>\n')).bodyHtml!;
    t.match(html, /^<div class="callout" data-kind="warning" role="note">.*careful <svg class="icon icon-inline" data-icon="rocket"/s);
  });

  t.test('should give imported MDX and JavaScript snippets every built-in component, one copy shared with the page', async (t) => {
    const html = (await ok('import { NoteBox } from "/snippets/note-box.mdx"\nimport { TabBox } from "/snippets/tabs.jsx"\n\n<NoteBox>hello</NoteBox>\n\n<Tabs><Tab title="B"><TabBox /></Tab></Tabs>\n')).bodyHtml!;
    t.match(html, /data-kind="note".*hello <svg class="icon icon-inline" data-icon="check"/s);
    t.match(html, /<button[^>]*>A<\/button>.*first <div class="card"><span class="card-title">c<\/span><\/div>/s, 'Tabs and Tab from a snippet work together');
  });

  t.test('should keep a component the page or snippet defines under a built-in name', async (t) => {
    t.equal((await ok('export const Note = ({ children }) => <p class="own">{children}</p>;\n\n<Note>mine</Note>\n')).bodyHtml, '<p class="own">mine</p>');
    t.equal((await ok('import { Wrap } from "/snippets/own-note.jsx"\n\n<Wrap />\n')).bodyHtml, '<div class="mine">wrapped</div>');
  });

  t.test('should expand <Snippet file> from snippets/ or _snippets/, with its props as variables', async (t) => {
    const result = await ok('# T\n\n<Snippet file="greeting.mdx" name="Ada" />\n\n<Snippet file="plain.mdx" />\n');
    t.match(result.bodyHtml!, /<p>Hello <strong>Ada<\/strong>, today is 2\.<\/p>\n<div class="callout" data-kind="tip"[^]*from the snippet/);
    t.equal(result.markdown, '# T\n\nHello , today is .\n\nfrom the snippet\n', 'values known only when the page runs are left out');
    t.match(result.searchText, /from the snippet/);
    const missing = (await compiler.compile([page('page.mdx', 'Text\n\n<Snippet file="nope.mdx" />\n')], ctx))[0];
    t.same(missing, { sourcePath: 'page.mdx', line: 3, column: 1, message: 'Unexpected <Snippet file="nope.mdx">: snippets/nope.mdx and _snippets/nope.mdx do not exist in the repository' });
    const outside = (await compiler.compile([page('page.mdx', '<Snippet file="../../etc/passwd.mdx" />\n')], ctx))[0];
    t.same(outside, { sourcePath: 'page.mdx', line: 1, column: 1, message: 'Unexpected <Snippet file="../../etc/passwd.mdx">: it leaves the repository' });
  });

  t.test('should render an update whose label is JSX or missing, as Mintlify does', async (t) => {
    const jsxLabel = await ok('<Update label={<><Icon icon="rocket" /><span>Quickstart</span></>} tags={["Start"]}>Body</Update>\n\n<Update description="v1">No label</Update>\n');
    t.match(jsxLabel.bodyHtml!, /<section class="update" id="quickstart"/);
    t.match(jsxLabel.bodyHtml!, /No label/);
    t.same(jsxLabel.toc, [{ depth: 2, id: 'quickstart', text: 'Quickstart' }]);
  });
});
