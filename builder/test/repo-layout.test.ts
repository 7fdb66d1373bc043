import t from 'tap';
import { repoLayout } from '../src/repo-layout.ts';

const FILES = [
  'docs.json', 'index.mdx', 'quickstart.md', 'changelog.mdx', 'guides/install.mdx', 'es/index.mdx',
  'README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'LICENSE', 'guides/README.md',
  '.github/PULL_REQUEST_TEMPLATE.md', '.vale/styles/Acme/rule.md', '.claude/notes.mdx', 'node_modules/x/readme.md',
  'snippets/note.mdx', 'snippets/tip.jsx', 'drafts/plan.mdx', 'guides/wip.draft.mdx',
  'images/hero.png', 'images/Diagram.SVG', 'logo/light.svg', 'favicon.ico', 'files/spec.pdf', 'scripts/gen.ts', 'config/nav.json',
  '.github/logo.png', 'public/robots.txt', 'public/images/hero.png', 'drafts/hidden.png',
];

t.test('repoLayout', async (t) => {
  t.test('should take pages and media from the repository root, leaving repository files out', async (t) => {
    const layout = repoLayout(FILES, '', 'drafts/\n*.draft.mdx\n');
    t.same(layout.pages, ['changelog.mdx', 'es/index.mdx', 'guides/README.md', 'guides/install.mdx', 'index.mdx', 'quickstart.md']);
    t.same([...layout.assets], [
      ['public/images/hero.png', 'images/hero.png'], ['public/robots.txt', 'robots.txt'],
      ['favicon.ico', 'favicon.ico'], ['files/spec.pdf', 'files/spec.pdf'], ['images/Diagram.SVG', 'images/Diagram.SVG'],
      ['images/hero.png', 'images/hero.png'], ['logo/light.svg', 'logo/light.svg'],
    ]);
  });

  t.test('should publish skill files for agents as they are, not as pages', async (t) => {
    const layout = repoLayout(['docs.json', 'index.mdx', 'skill.md', 'skills/payments/SKILL.md', 'guides/skill.md', 'skills/notes.md'], '');
    t.same(layout.pages, ['guides/skill.md', 'index.mdx', 'skills/notes.md']);
    t.same([...layout.assets], [['skill.md', 'skill.md'], ['skills/payments/SKILL.md', 'skills/payments/SKILL.md']]);
    t.same(repoLayout(['skill.md'], '', undefined, new Set(['skill'])).pages, ['skill.md'], 'a skill file the navigation lists is a page');
  });

  t.test('should make a repository file a page when the navigation lists it', async (t) => {
    const layout = repoLayout(['README.md', 'CONTRIBUTING.md', 'index.mdx'], '', undefined, new Set(['index', 'README']));
    t.same(layout.pages, ['README.md', 'index.mdx']);
  });

  t.test('should publish media under a content folder at their path inside it', async (t) => {
    const layout = repoLayout(['docs/index.mdx', 'docs/images/a.png', 'docs/snippets/s.mdx', 'docs/README.md', 'images/outside.png', 'README.md'], 'docs/');
    t.same(layout.pages, ['docs/index.mdx']);
    t.same([...layout.assets], [['docs/images/a.png', 'images/a.png']]);
  });

  t.test('should honour .mintignore negations and paths anchored at the root', async (t) => {
    const layout = repoLayout(['a.mdx', 'b/a.mdx', 'keep/x.mdx', 'keep/y.mdx'], '', '/a.mdx\nkeep/*\n!keep/y.mdx\n');
    t.same(layout.pages, ['b/a.mdx', 'keep/y.mdx']);
  });
});
