import t from 'tap';
import { headingIdOf, markHeadingIds } from '../../src/compile/heading-ids.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { isPageFailure } from '../../src/compile/index.ts';

t.test('custom heading ids', async (t) => {
  t.test('should turn a heading\'s {#id} into an empty expression, outside fences and past three spaces of indent', async (t) => {
    const source = [
      '## Memory & embedder config {#memory-embedder-config}', '   ### Indented {#three}', '    ### Too far {#four}',
      '```md', '## In a fence {#fenced}', '```', 'Text {#not-a-heading}', '# One {#a.b/c:d}  ', '',
    ].join('\n');
    t.equal(markHeadingIds(source), [
      '## Memory & embedder config{/*#memory-embedder-config*/} ', '   ### Indented{/*#three*/} ', '    ### Too far {#four}',
      '```md', '## In a fence {#fenced}', '```', 'Text {#not-a-heading}', '# One{/*#a.b/c:d*/}   ', '',
    ].join('\n'));
    t.equal(markHeadingIds('## No id\n'), '## No id\n');
    t.equal(headingIdOf('/*#config*/'), 'config');
    t.equal(headingIdOf('/* other comment */'), undefined);
  });

  t.test('should give the heading that id in a compiled page, with no marker left in its text or export', async (t) => {
    const compiler = await createCompiler({ workers: 1 });
    t.teardown(() => compiler.close());
    const [page] = await compiler.compile([{
      sourcePath: 'ids.mdx', contentRoot: '',
      source: '---\ntitle: Ids\n---\n\n## Memory & embedder config {#memory-embedder-config}\n\nSee [above](#memory-embedder-config).\n\n```md\n## Kept {#kept}\n```\n',
    }], { readFile: async () => undefined });
    if (isPageFailure(page)) throw new Error(page.message);
    t.match(page.bodyHtml, '<h2 id="memory-embedder-config">Memory &amp; embedder config<a class="heading-anchor" href="#memory-embedder-config"');
    t.match(page.bodyHtml, '## Kept {#kept}');
    t.same(page.toc, [{ depth: 2, id: 'memory-embedder-config', text: 'Memory & embedder config' }]);
    t.match(page.markdown, '## Memory & embedder config\n');
  });
});
