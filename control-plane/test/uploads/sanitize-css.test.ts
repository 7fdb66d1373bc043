import t from 'tap';
import { tokenizeCss } from '@folio/builder/internal/css/css-components.ts';
import { isSafeCssValue, sanitizeDeclarations, sanitizeStylesheet } from '../../src/uploads/sanitize-css.ts';

t.test('SVG CSS allow-list', async (t) => {
  t.test('should tokenize url() however it is spelled, as browsers do', async (t) => {
    const kinds = (css: string) => tokenizeCss(css).map((tok) => [tok.type, tok.value]);
    t.same(kinds('\\75 rl(x)'), [['url', 'x']], 'hex escape');
    t.same(kinds('U\\RL( a\\29 b )'), [['url', 'a)b']], 'letter escape, upper case, escaped ")" inside');
    t.same(kinds('url( "x" )'), [['function', 'url'], ['ws', ''], ['string', 'x'], ['ws', ''], [')', '']], 'quoted: a function with a string');
    t.same(kinds('u/**/rl(x)'), [['ident', 'u'], ['comment', ''], ['function', 'rl'], ['ident', 'x'], [')', '']], 'a comment splits the name');
    t.same(kinds('url(a b)'), [['bad-url', '']], 'a bad URL has no value (CSS Syntax 3, 4.3.14)');
    t.same(kinds('@im\\70 ort'), [['at-keyword', 'import']]);
  });

  t.test('should keep only url(#fragment) among urls, in every spelling', async (t) => {
    const cases: [string, string][] = [
      ['fill:url(#g)', 'fill:url(#g)'],
      ['fill:url("#g")', 'fill:url("#g")'],
      ['fill:url(#g);stroke:url(https://evil.example/x)', 'fill:url(#g)'],
      ['a:\\75 rl(https://evil.example/);b:1', 'b:1'],
      ['a:URL(//evil.example/);b:1', 'b:1'],
      ['a:url( "https://evil.example/" );b:1', 'b:1'],
      ['a:url(javascript:alert(1));b:1', 'b:1'],
      ['a:url(data:image/png;base64,AAAA);b:1', 'b:1'],
      ['a:src("https://evil.example/");b:1', 'b:1'],
      ['a:url(a b);b:1', 'b:1'],
      ['a:u/**/rl(x);b:1', 'a:u/**/rl(x);b:1'],
    ];
    for (const [css, expected] of cases) t.equal(sanitizeDeclarations(css), expected, css);
  });

  t.test('should drop image functions, script hooks, nested rules and broken declarations', async (t) => {
    const cases: [string, string][] = [
      ['background:image-set("https://evil.example/x.png" 1x);b:1', 'b:1'],
      ['background:-webkit-image-set("x.png" 1x);b:1', 'b:1'],
      ['background:cross-fade(url(#a), url(#b));b:1', 'b:1'],
      ['background:element(#x);b:1', 'b:1'],
      ['width:expression(alert(1));b:1', 'b:1'],
      ['width:e\\78 pression(alert(1));b:1', 'b:1'],
      ['behavior:url(#x);b:1', 'b:1'],
      ['-moz-binding:url(#x);b:1', 'b:1'],
      ['&:hover{fill:red};b:1', 'b:1'],
      ['no colon;b:1', 'b:1'],
      ['content:"unterminated\n;b:1', 'b:1'],
    ];
    for (const [css, expected] of cases) t.equal(sanitizeDeclarations(css), expected, css);
    t.equal(sanitizeDeclarations('fill: red; stroke: blue;'), 'fill: red; stroke: blue;', 'untouched CSS comes back as it was');
  });

  t.test('should keep @media, @supports and @keyframes and drop every other at-rule', async (t) => {
    const cases: [string, string][] = [
      ['@import url(https://evil.example/x.css);.a{fill:red}', '.a{fill:red}'],
      ['@import "https://evil.example/x.css" screen;.a{fill:red}', '.a{fill:red}'],
      ['@IMPORT\'x.css\';.a{fill:red}', '.a{fill:red}'],
      ['@font-face{font-family:x;src:url(#f)}.a{fill:red}', '.a{fill:red}'],
      ['@namespace svg url(http://www.w3.org/2000/svg);@charset "utf-8";.a{fill:red}', '.a{fill:red}'],
      ['@layer base{.a{background:url(https://evil.example/)}}.a{fill:red}', '.a{fill:red}'],
      ['@media (min-width:1px){.a{fill:red;background:url(//evil.example/)}}', '@media (min-width:1px){.a{fill:red}}'],
      ['@supports (fill:red){.a{fill:red}}@keyframes k{from{opacity:0}to{opacity:1;background:url(x)}}', '@supports (fill:red){.a{fill:red}}@keyframes k{from{opacity:0}to{opacity:1}}'],
      ['<!--.a{fill:red}-->', '.a{fill:red}'],
      ['.a{fill:red}.b{background:url(x)}', '.a{fill:red}.b{}'],
    ];
    for (const [css, expected] of cases) t.equal(sanitizeStylesheet(css), expected, css);
    const clean = '.st0{fill:#fff}\n@media print{ .st0 { fill: #000 } }';
    t.equal(sanitizeStylesheet(clean), clean, 'untouched CSS comes back as it was');
  });

  t.test('should refuse CSS nested deeper than any stylesheet needs', async (t) => {
    t.equal(sanitizeStylesheet(`${'@media x{'.repeat(40)}.a{fill:red}${'}'.repeat(40)}`), '');
    t.equal(sanitizeDeclarations(`a:${'calc('.repeat(40)}1${')'.repeat(40)}`), '');
    t.equal(isSafeCssValue('('.repeat(100_000)), false, 'no stack overflow');
  });

  t.test('should judge presentation attribute values', async (t) => {
    t.same(['url(#a)', 'url(#a) red', 'rotate(45 5 5)', 'url(x)', 'u\\72l(x)', 'image-set("x" 1x)'].map(isSafeCssValue), [true, true, true, false, false, false]);
  });
});
