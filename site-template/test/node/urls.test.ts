import t from 'tap';
import { absoluteUrl, cssValue, isExternal, slugify, withBase } from '../../src/node/urls.ts';

t.test('urls', async (t) => {
  t.test('should prefix root-relative paths with the base path once', async (t) => {
    t.same(
      ['/', '/guides/a', '/docs/guides/a', '/docsy', 'https://x.example/a', '//cdn.example/a', '#top', 'mailto:a@b.c'].map((h) => withBase('/docs', h)),
      ['/docs/', '/docs/guides/a', '/docs/guides/a', '/docs/docsy', 'https://x.example/a', '//cdn.example/a', '#top', 'mailto:a@b.c'],
    );
    t.equal(withBase('', '/guides/a'), '/guides/a');
    t.equal(withBase('/docs/', '/a'), '/docs/a', 'a trailing slash on the base is ignored');
  });

  t.test('should build absolute URLs from the site URL, base path and path', async (t) => {
    t.equal(absoluteUrl('https://acme.docs.example/', '/docs', '/og.png'), 'https://acme.docs.example/docs/og.png');
    t.equal(absoluteUrl('https://acme.docs.example', '', 'og.png'), 'https://acme.docs.example/og.png');
    t.equal(absoluteUrl('https://acme.docs.example', '/docs', 'https://cdn.example/og.png'), 'https://cdn.example/og.png');
  });

  t.test('should tell http(s) targets from docs paths', async (t) => {
    t.same(['https://a.example', 'HTTP://a.example', '/docs', 'mailto:x'].map(isExternal), [true, true, false, false]);
  });

  t.test('should slugify labels into anchor ids', async (t) => {
    t.same(['v2.1.0', 'Crème brûlée — 2025!', '  Hello  World  ', '日本語 ok', '!!!'].map(slugify), ['v2-1-0', 'creme-brulee-2025', 'hello-world', '日本語-ok', 'section']);
  });

  t.test('should drop CSS values that could end a declaration', async (t) => {
    t.same(['#0ea5e9', ' linear-gradient(#000, #111) ', 'red;color:blue', 'x}body{', '</style>', '', undefined].map(cssValue),
      ['#0ea5e9', 'linear-gradient(#000, #111)', undefined, undefined, undefined, undefined, undefined]);
  });

  t.test('should drop CSS values that could load something', async (t) => {
    t.same(
      ['linear-gradient(red, red), url(http://evil.example/x)', 'URL(//evil.example/x)', 'image-set("http://evil.example/x" 1x)', '-webkit-image-set("//e/x" 1x)', 'u\\72l(//evil.example/x)', 'cross-fade(a, b)', 'Inter, "Source Sans 3", sans-serif', 'rgb(0 0 0 / 50%)', 'radial-gradient(circle, #fff 0%, #000 100%)'].map(cssValue),
      [undefined, undefined, undefined, undefined, undefined, undefined, 'Inter, "Source Sans 3", sans-serif', 'rgb(0 0 0 / 50%)', 'radial-gradient(circle, #fff 0%, #000 100%)'],
    );
  });
});
