import t from 'tap';
import { createLocalCompiler } from '../../src/compile/local-compiler.ts';
import { isPageFailure } from '../../src/compile/compiler.ts';
import { navFacts } from '../../src/dev/nav-facts.ts';

t.test('navFacts', async (t) => {
  t.test('should take the sidebar fields from the frontmatter', async (t) => {
    const source = '---\ntitle: Install\nsidebarTitle: Setup\norder: 2\nicon: " rocket "\n---\n\n# Installing things\n';
    t.same(navFacts('docs/guides/install.mdx', source, 'docs/'), { sourcePath: 'docs/guides/install.mdx', urlPath: '/guides/install', title: 'Install', sidebarTitle: 'Setup', order: 2, icon: 'rocket' });
  });

  t.test('should fall back to the first level-1 heading outside code fences, then to the file name', async (t) => {
    const fenced = '---\ndescription: x\n---\n\n```md\n# Not this\n```\n\n## Nor this\n\n# The [real](/x) **title** #\n';
    t.same(navFacts('docs/a.mdx', fenced, 'docs/'), { sourcePath: 'docs/a.mdx', urlPath: '/a', title: 'The real title' });
    t.same(navFacts('docs/index.md', 'No heading here.\n', 'docs/'), { sourcePath: 'docs/index.md', urlPath: '/', title: 'index' });
  });

  t.test('should read a frontmatter the compiler rejects as none, and ignore fields of the wrong type', async (t) => {
    t.same(navFacts('docs/b.mdx', '---\ntitle: [unclosed\n---\n\n# Heading\n', 'docs/'), { sourcePath: 'docs/b.mdx', urlPath: '/b', title: 'Heading' });
    t.same(navFacts('docs/c.mdx', '---\ntitle: 3\norder: soon\n---\n\nText.\n', 'docs/'), { sourcePath: 'docs/c.mdx', urlPath: '/c', title: 'c' });
  });

  t.test('should give the title the compiler gives for plain headings and frontmatter', async (t) => {
    const compiler = await createLocalCompiler();
    t.teardown(() => compiler.close());
    const pages = [
      { sourcePath: 'docs/one.mdx', source: '---\ntitle: One\nsidebarTitle: First\n---\n\n# Heading one\n', contentRoot: 'docs/' },
      { sourcePath: 'docs/two.mdx', source: 'Intro.\n\n# Second page\n\nText.\n', contentRoot: 'docs/' },
      { sourcePath: 'docs/three.md', source: 'Just text.\n', contentRoot: 'docs/' },
    ];
    const results = await compiler.compile(pages, { readFile: async () => undefined });
    for (const [i, page] of pages.entries()) {
      const result = results[i];
      if (isPageFailure(result)) { t.fail(result.message); continue; }
      const facts = navFacts(page.sourcePath, page.source, 'docs/');
      t.same([facts.title, facts.sidebarTitle, facts.urlPath], [result.title, result.sidebarTitle, result.urlPath], page.sourcePath);
    }
  });
});
