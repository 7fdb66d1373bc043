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

  await t.test('should prefer Markdown only when asked for it at least as much as HTML', async (t) => {
    t.equal(wantsMarkdown('text/markdown'), true);
    t.equal(wantsMarkdown('text/html, text/markdown;q=0.5'), false);
    t.equal(wantsMarkdown(undefined), false);
  });
});
