import t from 'tap';
import { createRawFloor } from '../../src/compile/raw-floor.ts';

t.test('createRawFloor', async (t) => {
  const floor = await createRawFloor();
  t.teardown(() => floor.close());

  t.test('should compile, run and render a page with plain MDX and rehype shiki', async (t) => {
    t.equal(await floor.render('---\ntitle: x\n---\n# Hi\n\nSome *text* ~~old~~.\n\n```klingon\nx\n```\n', 'docs/a.mdx'),
      '<h1>Hi</h1>\n<p>Some <em>text</em> <del>old</del>.</p>\n'
      + '<pre class="shiki shiki-themes github-light github-dark" style="--shiki-light:#24292e;--shiki-dark:#e1e4e8;--shiki-light-bg:#fff;--shiki-dark-bg:#24292e;" tabindex="0"><code><span class="line"><span>x</span></span></code></pre>');
  });

  t.test('should treat .md files as plain Markdown', async (t) => {
    t.equal(await floor.render('A {brace}.\n', 'docs/a.md'), '<p>A {brace}.</p>');
  });
});
