import t from 'tap';
import { candidateKeys, matchRedirect, wantsMarkdown } from '../../src/serve/resolve-path.ts';

t.test('resolve-path', async (t) => {
  await t.test('should map clean URLs, files and Markdown requests to keys', async (t) => {
    t.same(candidateKeys('/', false), ['index.html']);
    t.same(candidateKeys('/guides/install/', false), ['guides/install/index.html', 'guides/install']);
    t.same(candidateKeys('/logo.svg', false), ['logo.svg']);
    t.same(candidateKeys('/guides/install', true), ['guides/install.md']);
    t.equal(candidateKeys('/a/../_folio/manifest.json', false), undefined);
    t.equal(candidateKeys('/_folio/manifest.json', false), undefined);
  });

  await t.test('should match a redirect with or without a trailing slash', async (t) => {
    const rules = [{ source: '/old', destination: '/new', status: 308 }, { source: '/', destination: '/home', status: 307 }];
    t.same(matchRedirect(rules, '/old/'), rules[0]);
    t.same(matchRedirect(rules, '/old'), rules[0]);
    t.same(matchRedirect(rules, '/'), rules[1]);
    t.equal(matchRedirect(rules, '/older'), undefined);
  });

  await t.test('should serve a page at its source\'s name too, after the keys written so, as Mintlify does', async (t) => {
    t.same(candidateKeys('/assistant/index', false), ['assistant/index/index.html', 'assistant/index', 'assistant/index.html']);
    t.same(candidateKeys('/index', false), ['index/index.html', 'index', 'index.html']);
    t.same(candidateKeys('/guides/chat.mdx', false), ['guides/chat.mdx', 'guides/chat/index.html']);
    t.same(candidateKeys('/guides/index.mdx', false), ['guides/index.mdx', 'guides/index.html']);
    t.same(candidateKeys('/assistant/index', true), ['assistant/index.md', 'assistant.md']);
    t.same(candidateKeys('/index', true), ['index.md']);
  });

  await t.test('should match Mintlify\'s redirect patterns and fill the destination in, first rule first', async (t) => {
    const rules = [
      { source: '/old', destination: '/new', status: 308 },
      { source: '/beta/:slug*', destination: '/v2/:slug*', status: 308 },
      { source: '/blog/:id', destination: 'https://blog.example/posts/:id', status: 307 },
      { source: '/files/:name+', destination: '/assets/:name', status: 307 },
      { source: '/legacy/*', destination: '/', status: 307 },
    ];
    const to = (p: string) => matchRedirect(rules, p)?.destination;
    t.same(['/beta', '/beta/', '/beta/a', '/beta/a/b/c/'].map(to), ['/v2', '/v2', '/v2/a', '/v2/a/b/c']);
    t.same(['/blog/12', '/blog/12/x', '/blog'].map(to), ['https://blog.example/posts/12', undefined, undefined]);
    t.same(['/files', '/files/a/b.png'].map(to), [undefined, '/assets/a/b.png']);
    t.same(['/legacy/x/y', '/legacyx', '/beta.txt', '/nothing'].map(to), ['/', undefined, undefined, undefined]);
    t.same(matchRedirect(rules, '/beta/a'), { source: '/beta/:slug*', destination: '/v2/a', status: 308 });
    // Special characters of a source are matched as written, never as a regular expression.
    t.equal(matchRedirect([{ source: '/a.b/:x', destination: '/c/:x', status: 307 }], '/aXb/1'), undefined);
  });

  await t.test('should match a source with more than one repeated part, or many parameters, only as written (no slow patterns)', async (t) => {
    const hostile = `/${Array.from({ length: 20 }, (_, i) => `:p${i}*`).join('/')}/x`;
    const rules = [{ source: hostile, destination: '/y', status: 307 }];
    t.equal(matchRedirect(rules, `/${'a/'.repeat(2000)}b`), undefined);
    t.same(matchRedirect(rules, hostile), rules[0]);
    const many = `/${Array.from({ length: 9 }, (_, i) => `:p${i}?`).join('/')}`;
    t.equal(matchRedirect([{ source: many, destination: '/y', status: 307 }], `/${'a/'.repeat(20)}`), undefined);
  });

  await t.test('should prefer Markdown only when asked for it at least as much as HTML', async (t) => {
    t.equal(wantsMarkdown('text/markdown'), true);
    t.equal(wantsMarkdown('text/html, text/markdown;q=0.5'), false);
    t.equal(wantsMarkdown(undefined), false);
  });
});
