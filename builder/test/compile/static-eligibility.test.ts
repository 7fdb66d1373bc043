import type { Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import t from 'tap';
import { unified } from 'unified';
import { catalogueComponent, isStaticTree } from '../../src/compile/static-eligibility.ts';

const Note = () => null;
const Tree = Object.assign(() => null, { Folder: () => null, label: 'not a component' });
const components: Record<string, unknown> = { Note, Tree };
const parser = unified().use(remarkParse).use(remarkMdx).use(remarkFrontmatter, ['yaml']).use(remarkGfm);
const isStatic = (mdx: string) => isStaticTree(parser.parse(mdx) as Root, components);

t.test('static eligibility', async (t) => {
  t.test('should let Markdown, frontmatter, catalogue components with literal props and lowercase tags through', async (t) => {
    t.ok(isStatic('---\ntitle: A\n---\n\n# A\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n```js\nx\n```\n'));
    t.ok(isStatic('<Note title="Hi" open>\n  Some **text**.\n</Note>\n'));
    t.ok(isStatic('<Tree>\n  <Tree.Folder name="src" />\n</Tree>\n'));
    t.ok(isStatic('<div class="box">\n  <img src="/a.png" alt="" />\n</div>\n'));
  });

  t.test('should send anything that runs code, or names what the catalogue lacks, to the MDX path', async (t) => {
    const cases: Record<string, string> = {
      import: "import X from '/snippets/x.mdx';\n\n<X />\n",
      export: 'export const a = 1;\n\n# A\n',
      'flow expression': '{1 + 1}\n',
      'text expression': 'Sum: {1 + 1}.\n',
      comment: '{/* a comment is an expression */}\n',
      'attribute expression': '<Note title={"Hi"}>x</Note>\n',
      spread: '<Note {...props}>x</Note>\n',
      fragment: '<>\n  x\n</>\n',
      'unknown component': '<Card>x</Card>\n',
      'property that is not a component': '<Tree.label />\n',
      'inherited property': '<Tree.constructor />\n',
      'member of a tag': '<a.b />\n',
      namespace: '<svg:rect />\n',
    };
    for (const [name, mdx] of Object.entries(cases)) t.notOk(isStatic(mdx), name);
  });

  t.test('should look components up as MDX does, own properties only', async (t) => {
    t.equal(catalogueComponent(components, 'Note'), Note);
    t.equal(catalogueComponent(components, 'Tree.Folder'), Tree.Folder);
    t.equal(catalogueComponent(components, 'toString'), undefined);
    t.equal(catalogueComponent(components, 'Tree.prototype'), undefined);
  });
});
