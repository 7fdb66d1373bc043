import t from 'tap';
import { urlPathFor } from '../../src/compile/url-path.ts';

t.test('urlPathFor', async (t) => {
  t.test('should drop the content root and the extension', async (t) => {
    t.equal(urlPathFor('docs/guides/install.mdx', 'docs/'), '/guides/install');
    t.equal(urlPathFor('docs/notes.md', 'docs/'), '/notes');
  });

  t.test('should map index pages to their folder', async (t) => {
    t.equal(urlPathFor('docs/index.mdx', 'docs/'), '/');
    t.equal(urlPathFor('docs/guides/index.mdx', 'docs/'), '/guides');
  });

  t.test('should accept a content root at the repository root', async (t) => {
    t.equal(urlPathFor('guides/a.mdx', ''), '/guides/a');
    t.equal(urlPathFor('index.mdx', '/'), '/');
  });
});
