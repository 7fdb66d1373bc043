import t from 'tap';
import { classCandidates, classesOfPages, tailwindCss, tailwindKey, utilitiesSheet } from '../../src/outputs/tailwind-css.ts';

t.test('tailwind utilities', async (t) => {
  t.test('should collect the distinct tokens of every class attribute', async (t) => {
    t.same(classCandidates('<div class="p-4  md:flex"><img class=\'block dark:hidden\' src="a.png"/><p class="p-4">x</p><span data-class="no-me"></span></div>'), ['block', 'dark:hidden', 'md:flex', 'p-4']);
    t.same(classCandidates('<p>class="not an attribute"</p>'), []);
  });

  t.test('should generate only the utilities in use, important, with dark: bound to the template dark mode', async (t) => {
    const css = await tailwindCss(['block', 'dark:hidden', 'p-4', 'not-a-utility', 'prose']);
    t.match(css, '.block {\n  display: block !important;\n}');
    t.match(css, '.p-4 {\n  padding: calc(var(--spacing) * 4) !important;\n}');
    t.match(css, '.dark\\:hidden:where([data-mode=dark], [data-mode=dark] *) {\n  display: none !important;\n}');
    t.match(css, '@media (prefers-color-scheme: dark) {\n  .dark\\:hidden:where(:root:not([data-mode]), :root:not([data-mode]) *) {\n    display: none !important;\n  }\n}');
    t.notMatch(css, 'not-a-utility');
    t.notMatch(css, '.prose');
    t.notMatch(css, /\.flex\b|\.grid\b|\.m-4\b/, 'nothing that is not used');
  });

  t.test('should let arbitrary values load only from the site', async (t) => {
    const css = await tailwindCss([
      'bg-[url(http://evil.example/1.png)]', '[mask-image:url(//evil.example/2.svg)]', '[cursor:url(https://evil.example/3.cur),auto]',
      "bg-[image:image-set('http://evil.example/4.png'_1x)]", "[background:url('/\\9/evil.example/5')]", "bg-[url('\\2f\\2f_evil.example/6')]",
      'bg-[url(/images/ok.png)]',
    ]);
    t.equal(css.replace(/^\/\*! tailwindcss [^\n]*\n/, ''), [
      '.\\[cursor\\:url\\(https\\:\\/\\/evil\\.example\\/3\\.cur\\)\\,auto\\] {\n  cursor: none,auto !important;\n}',
      ".bg-\\[image\\:image-set\\(\\'http\\:\\/\\/evil\\.example\\/4\\.png\\'_1x\\)\\] {\n  background-image: none !important;\n}",
      ".bg-\\[url\\(\\'\\\\2f\\\\2f_evil\\.example\\/6\\'\\)\\] {\n  background-image: none !important;\n}",
      '.bg-\\[url\\(\\/images\\/ok\\.png\\)\\] {\n  background-image: url(/images/ok.png) !important;\n}',
      '.bg-\\[url\\(http\\:\\/\\/evil\\.example\\/1\\.png\\)\\] {\n  background-image: none !important;\n}',
      '.\\[mask-image\\:url\\(\\/\\/evil\\.example\\/2\\.svg\\)\\] {\n  mask-image: none !important;\n}',
      ".\\[background\\:url\\(\\'\\/\\\\9\\/evil\\.example\\/5\\'\\)\\] {\n  background: none !important;\n}",
      '',
    ].join('\n'));
  });

  t.test('should not carry the classes of one call into the next', async (t) => {
    await tailwindCss(['grid']);
    t.notMatch(await tailwindCss(['block']), '.grid');
  });

  t.test('should make the sheet of the same classes once, in whatever order they come', async (t) => {
    const first = tailwindCss(['p-2', 'flex', 'flex']);
    t.equal(tailwindCss(['flex', 'p-2']), first, 'the sheet already made');
    t.match(await first, '.flex {\n  display: flex !important;\n}');
    for (let i = 0; i < 20; i++) await tailwindCss([`m-${i}`]);
    t.not(tailwindCss(['flex', 'p-2']), first, 'made again once 16 others were made since');
  });

  t.test('should produce nothing when no class is a utility', async (t) => {
    t.equal(await tailwindCss(['note', 'callout', 'card-group']), '');
    t.equal(await tailwindCss([]), '');
  });

  t.test('should keep the last build\'s sheet when the classes are the same and its object is still there', async (t) => {
    const kept = new Set<string>();
    const keep = (key: string) => kept.has(key);
    const first = await utilitiesSheet(['p-4', 'block', 'note'], undefined, keep);
    t.ok(first.state.key && first.css, 'made, and to be published');
    t.equal(first.state.key, tailwindKey(first.css!));
    t.same(await utilitiesSheet(['block', 'p-4', 'note', 'block'], first.state, keep), { state: first.state, css: first.css }, 'its object gone: published again');
    kept.add(first.state.key!);
    t.same(await utilitiesSheet(['block', 'note', 'p-4'], first.state, keep), { state: first.state }, 'the same classes in another order: kept as it is');
    const other = await utilitiesSheet(['block', 'p-4', 'flex'], first.state, keep);
    t.not(other.state.from, first.state.from);
    t.match(other.css, '.flex {', 'a class more: made again');
    t.same(await utilitiesSheet(['flex', 'block', 'p-4'], { from: first.state.from, key: other.state.key }, keep), other, 'a state that does not hold for these classes is not trusted');
    const none = await utilitiesSheet(['note'], other.state, keep);
    t.same(none, { state: { from: none.state.from } }, 'no utility: no sheet');
    t.same(await utilitiesSheet(['note'], none.state, () => false), none, 'and kept as none');
  });

  t.test('should name the stylesheet by its content', async (t) => {
    t.match(tailwindKey('a'), /^_folio\/utilities-[0-9a-f]{12}\.css$/);
    t.not(tailwindKey('a'), tailwindKey('b'));
  });

  t.test('should give the same array back while every page keeps its class names, and a new one when one changes', async (t) => {
    const a = Object.freeze(['block', 'p-4']);
    const b = Object.freeze(['flex']);
    const first = classesOfPages([a, undefined, b]);
    t.same(first, ['block', 'p-4', 'flex']);
    t.equal(classesOfPages([a, undefined, b]), first, 'the same lists');
    t.equal(classesOfPages([a, undefined, ['flex']]), first, 'another list with the same names');
    const edited = classesOfPages([a, ['grid'], ['flex']]);
    t.not(edited, first);
    t.same(edited, ['block', 'p-4', 'grid', 'flex']);
    t.same(classesOfPages([a, ['grid']]), ['block', 'p-4', 'grid'], 'a page removed');
    t.same(classesOfPages([a, ['grid'], b, b]), ['block', 'p-4', 'grid', 'flex', 'flex'], 'a page added');
    const keep = () => true;
    const sheet = await utilitiesSheet(classesOfPages([a, b]), undefined, keep);
    t.same(await utilitiesSheet(classesOfPages([a, b]), sheet.state, keep), { state: sheet.state }, 'the array given back makes the same sheet inputs');
    t.same((await utilitiesSheet(['block', 'p-4', 'flex'], undefined, keep)).state, sheet.state, 'as the same names in a new array');
  });
});
