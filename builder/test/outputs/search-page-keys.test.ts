import t from 'tap';
import { searchDocument } from '../../src/outputs/search-shards.ts';

const page = (frontmatter: Record<string, unknown>) => ({ urlPath: '/notes', title: 'Notes', bodyHtml: '<p>Trail notes.</p>', frontmatter });

t.test('Mintlify page keys in search', async (t) => {
  t.test('should leave noindex and hidden pages out of search', async (t) => {
    for (const fm of [{ noindex: true }, { hidden: true }]) {
      const doc = searchDocument(page(fm));
      t.match(doc, '<main data-pagefind-body></main>', JSON.stringify(fm));
      t.notMatch(doc, 'Trail notes');
    }
    t.match(searchDocument(page({ noindex: 'yes' })), 'Trail notes', 'only true counts, as on Mintlify');
  });

  t.test('should search a page by its keywords', async (t) => {
    t.match(searchDocument(page({ keywords: ['bivouac', '<overnight>'] })), '<p>Trail notes.</p><p>bivouac &lt;overnight&gt;</p>');
    t.match(searchDocument(page({ keywords: 'bivouac, camp' })), '<p>bivouac camp</p>');
    t.notMatch(searchDocument(page({ keywords: [3] })), '<p></p>');
  });
});
