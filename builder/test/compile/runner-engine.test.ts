import t from 'tap';
import { createSharedHighlighter } from '../../src/compile/highlighter.ts';
import { BatchIds } from '../../src/compile/page-plugin.ts';
import { createRunnerEngine } from '../../src/compile/runner-engine.ts';

t.test('createRunnerEngine', async (t) => {
  const highlighter = await createSharedHighlighter();
  const files = new Map([['docs/a.mdx', "import S from './s.mdx'\n\n# A\n\n<S />\n"], ['docs/s.mdx', 'Snippet\n'], ['docs/b.mdx', '# B\n']]);
  const source = { read: async (path: string) => files.get(path) };
  const engine = await createRunnerEngine({ highlighter, repoPath: BatchIds.repoPath, read: source.read, report: () => {}, putCode: () => '0' });
  t.teardown(async () => {
    await engine.close();
    highlighter.highlighter.dispose();
  });

  t.test('should forget every repository module once a batch is done', async (t) => {
    for (let batch = 1; batch <= 3; batch++) {
      const results = await engine.load(new BatchIds(batch), ['docs/a.mdx', 'docs/b.mdx'], source);
      t.same(results.map((r) => r.ok), [true, true]);
      t.equal(engine.heldModules(), 0, `after batch ${batch}`);
    }
  });
});
