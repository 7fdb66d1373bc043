import t from 'tap';
import { customCssFiles, fileList, sanitizeCustomCss, siteFilesEnding } from '../../src/css/custom-css.ts';

const SITE = 'https://acme.docs.example';

t.test('custom CSS', async (t) => {
  t.test('should keep CSS that loads nothing from outside the site exactly as written', async (t) => {
    const css = '.hero { background: url(/images/bg.png) no-repeat; color: #123456 }\n.x { mask: url("#m") }\n.y { background-image: url(data:image/png;base64,AAAA) }\n.z { background: url("https://acme.docs.example/a.png") }\n';
    t.same(sanitizeCustomCss(css, 'style.css', SITE), { css, warnings: [] });
  });

  t.test('should remove every @import with a warning', async (t) => {
    const out = sanitizeCustomCss('@import url("https://fonts.example/f.css");\n@import "local.css" screen;\nh1 { color: red }\n', 'style.css', SITE);
    t.same(out, {
      css: '\n\nh1 { color: red }\n',
      warnings: [
        'style.css: @import url("https://fonts.example/f.css") removed; custom CSS loads nothing else (list repository stylesheets under "css" in docs.json)',
        'style.css: @import "local.css" screen removed; custom CSS loads nothing else (list repository stylesheets under "css" in docs.json)',
      ],
    });
  });

  t.test('should replace off-site url() in every spelling with none', async (t) => {
    const out = sanitizeCustomCss('a { background: url(https://tracker.example/p.gif) } b { background: url( "//evil.example/x" ) } c { background: \\75 rl(http://evil.example/e) }', 'brand.css', SITE);
    t.same(out, {
      css: 'a { background: none } b { background: none } c { background: none }',
      warnings: [
        'brand.css: url(https://tracker.example/p.gif) removed; only files of this site may be loaded',
        'brand.css: url(//evil.example/x) removed; only files of this site may be loaded',
        'brand.css: url(http://evil.example/e) removed; only files of this site may be loaded',
      ],
    });
  });

  t.test('should judge url() after escapes are decoded, and image-set() strings as URLs', async (t) => {
    const css = [
      'a { background: url("/\\9 /evil.example/1") }',
      'b { background: url("\\1 //evil.example/2") }',
      'c { background: url("ht\\9 tp://evil.example/3") }',
      'd { background: url("/\\A /evil.example/4") }',
      'e { background: image-set("http://evil.example/5" 1x) }',
      'f { mask-image: -webkit-image-set("//evil.example/6" 1x) }',
    ].join('\n');
    t.same(sanitizeCustomCss(css, 'style.css', SITE), {
      css: 'a { background: none }\nb { background: none }\nc { background: none }\nd { background: none }\ne { background: none }\nf { mask-image: none }',
      warnings: [
        'style.css: url(/\t/evil.example/1) removed; only files of this site may be loaded',
        'style.css: url(\u0001//evil.example/2) removed; only files of this site may be loaded',
        'style.css: url(ht\ttp://evil.example/3) removed; only files of this site may be loaded',
        'style.css: url(/\n/evil.example/4) removed; only files of this site may be loaded',
        'style.css: image-set(http://evil.example/5) removed; only files of this site may be loaded',
        'style.css: -webkit-image-set(//evil.example/6) removed; only files of this site may be loaded',
      ],
    });
  });

  t.test('should pick style.css then the files listed under css, warning about missing ones', async (t) => {
    const files = new Map([['style.css', 'a'], ['theme/brand.css', 'b']]);
    t.same(customCssFiles({ files }, { name: 'x', css: ['theme/brand.css', './style.css', 'missing.css'] }), {
      files: ['style.css', 'theme/brand.css'],
      warnings: ['docs.json: css: missing.css does not exist in the repository; ignored'],
    });
    t.same(customCssFiles({ files }, { name: 'x', css: 'brand.css' }), {
      files: ['style.css', 'theme/brand.css'],
      warnings: ['docs.json: css: ignored; expected an array of at most 20 repository paths ending in .css'],
    });
    t.same(customCssFiles({ files: new Map() }, { name: 'x' }), { files: [], warnings: [] });
  });

  t.test('should take every other .css file of the docs root too, as Mintlify does, but none of public/, snippets/, dot-folders or node_modules', async (t) => {
    const files = new Map(['fonts.css', 'style.css', 'a/playground.css', 'public/raw.css', 'snippets/x.css', '.github/y.css', 'node_modules/z/z.css', 'page.mdx'].map((p) => [p, 'x']));
    t.same(customCssFiles({ files }, { name: 'x' }).files, ['style.css', 'a/playground.css', 'fonts.css']);
    t.same(siteFilesEnding({ files: new Map([['widget.js', 'x'], ['snippets/card.js', 'x'], ['public/app.js', 'x']]) }, '.js'), ['widget.js']);
    t.same([fileList(['a.css']), fileList(['a.css', 'b.css']), fileList(['a.css', 'b.css', 'c.css', 'd.css'])], ['a.css', 'a.css and b.css', 'a.css, b.css and 2 more']);
  });
});
