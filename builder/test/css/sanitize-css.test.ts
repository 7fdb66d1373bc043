import t, { type Test } from 'tap';
import { sanitizeSiteCss, urlStaysOnSite } from '../../src/css/sanitize-css.ts';

const SITE = 'https://acme.docs.example';
const EVIL = 'evil.example';

/** [input, output, what was removed]: the site policy, judged with the site's URL. */
type Case = [css: string, out: string, removed: string[]];
const check = (t: Test, cases: Case[]) => {
  for (const [css, out, removed] of cases) t.same(sanitizeSiteCss(css, { siteUrl: SITE }), { css: out, removed }, JSON.stringify(css));
};

t.test('site CSS policy', async (t) => {
  t.test('should decode escapes and whitespace the URL parser drops before judging a url() string', async (t) => {
    check(t, [
      [`a{background:url("/\\9 /${EVIL}/x")}`, 'a{background:none}', [`url(/\t/${EVIL}/x)`]],
      [`a{background:url("\\1 //${EVIL}/x")}`, 'a{background:none}', [`url(\u0001//${EVIL}/x)`]],
      [`a{background:url("ht\\9 tp://${EVIL}/x")}`, 'a{background:none}', [`url(ht\ttp://${EVIL}/x)`]],
      [`a{background:url("/\\A /${EVIL}/x")}`, 'a{background:none}', [`url(/\n/${EVIL}/x)`]],
      [`a{background:url("/\\D /${EVIL}/x")}`, 'a{background:none}', [`url(/\r/${EVIL}/x)`]],
      [`a{background:url("\t//${EVIL}/x")}`, 'a{background:none}', [`url(\t//${EVIL}/x)`]],
      [`a{background:url("/\t/${EVIL}/x")}`, 'a{background:none}', [`url(/\t/${EVIL}/x)`]],
      [`a{background:url(" //${EVIL}/x ")}`, 'a{background:none}', [`url( //${EVIL}/x )`]],
      [`a{background:url("//ev\\\nil.example/x")}`, 'a{background:none}', [`url(//${EVIL}/x)`]],
      [`a{background:url("\\2f\\2f ${EVIL}/x")}`, 'a{background:none}', [`url(//${EVIL}/x)`]],
    ]);
  });

  t.test('should judge url() in every spelling: unquoted, upper case, escaped name, comments, protocol-relative, backslashes', async (t) => {
    check(t, [
      [`a{background:url(http://${EVIL}/x)}`, 'a{background:none}', [`url(http://${EVIL}/x)`]],
      [`a{background:URL(http://${EVIL}/x)}`, 'a{background:none}', [`url(http://${EVIL}/x)`]],
      [`a{background:URL("http://${EVIL}/x")}`, 'a{background:none}', [`URL(http://${EVIL}/x)`]],
      [`a{background:u\\72l(http://${EVIL}/x)}`, 'a{background:none}', [`url(http://${EVIL}/x)`]],
      [`a{background:\\75 rl("//${EVIL}/x")}`, 'a{background:none}', [`url(//${EVIL}/x)`]],
      [`a{background:url( "//${EVIL}/x" /*c*/ )}`, 'a{background:none}', [`url(//${EVIL}/x)`]],
      [`a{background:url( /*c*/ "//${EVIL}/x")}`, 'a{background:none}', [`url( /*c*/ "//${EVIL}/x")`]], // a bad URL: a comment is no comment there
      [`a{background:url(//${EVIL}/x)}`, 'a{background:none}', [`url(//${EVIL}/x)`]],
      [`a{background:url(\\/\\/${EVIL}/x)}`, 'a{background:none}', [`url(//${EVIL}/x)`]],
      [`a{background:url(/\\\\${EVIL}/x)}`, 'a{background:none}', [`url(/\\${EVIL}/x)`]],
      [`a{background:url("\\\\\\\\${EVIL}/x")}`, 'a{background:none}', [`url(\\\\${EVIL}/x)`]],
      [`a{background:url(HTTPS://${EVIL}/x)}`, 'a{background:none}', [`url(HTTPS://${EVIL}/x)`]],
      [`a{background:url(https://acme.docs.example@${EVIL}/x)}`, 'a{background:none}', [`url(https://acme.docs.example@${EVIL}/x)`]],
      ['a{background:url(javascript:alert(1))}', 'a{background:none)}', ['url(javascript:alert(1)']], // a bad URL up to the first ")", as a browser reads it
      [`a{background:url(http://${EVIL}/x a)}`, 'a{background:none}', [`url(http://${EVIL}/x a)`]],
    ]);
  });

  t.test('should judge image-set(), -webkit-image-set(), image(), cross-fade() and src() arguments, strings included', async (t) => {
    check(t, [
      [`a{background:image-set("http://${EVIL}/x" 1x)}`, 'a{background:none}', [`image-set(http://${EVIL}/x)`]],
      [`a{background:image-set("/a.png" 1x, url(//${EVIL}/b) 2x)}`, 'a{background:none}', [`image-set(//${EVIL}/b)`]],
      [`a{background:-webkit-image-set(url(//${EVIL}/x) 1x)}`, 'a{background:none}', [`-webkit-image-set(//${EVIL}/x)`]],
      [`a{background:-webkit-image-set("/\\9 /${EVIL}/x" 1x)}`, 'a{background:none}', [`-webkit-image-set(/\t/${EVIL}/x)`]],
      [`a{background:IMAGE-SET(url("//${EVIL}/x") 1x)}`, 'a{background:none}', [`IMAGE-SET(//${EVIL}/x)`]],
      ['a{background:image-set(var(--u) 1x)}', 'a{background:none}', ['image-set(…)']],
      [`a{background:image("http://${EVIL}/x.png")}`, 'a{background:none}', [`image(http://${EVIL}/x.png)`]],
      [`a{background:cross-fade(url(/a.png), url(http://${EVIL}/b.png))}`, 'a{background:none}', [`cross-fade(http://${EVIL}/b.png)`]],
      [`a{background:src("//${EVIL}/x")}`, 'a{background:none}', [`src(//${EVIL}/x)`]],
      ['a{background:src(var(--u))}', 'a{background:none}', ['src(…)']],
      ['a{background:element(#hero)}', 'a{background:none}', ['element(…)']],
    ]);
  });

  t.test('should replace url() in every property that loads: mask-image, cursor, list-style-image, border-image, content, @font-face src', async (t) => {
    check(t, [
      [`a{mask-image:url(http://${EVIL}/m.svg);-webkit-mask-image:url(//${EVIL}/m.svg)}`, 'a{mask-image:none;-webkit-mask-image:none}', [`url(http://${EVIL}/m.svg)`, `url(//${EVIL}/m.svg)`]],
      [`a{cursor:url(https://${EVIL}/c.cur),auto}`, 'a{cursor:none,auto}', [`url(https://${EVIL}/c.cur)`]],
      [`a{list-style-image:url(//${EVIL}/l.png)}`, 'a{list-style-image:none}', [`url(//${EVIL}/l.png)`]],
      [`a{border-image:url(http://${EVIL}/b.png) 30 round}`, 'a{border-image:none 30 round}', [`url(http://${EVIL}/b.png)`]],
      [`a::before{content:url(http://${EVIL}/c.png)}`, 'a::before{content:none}', [`url(http://${EVIL}/c.png)`]],
      [`@font-face{font-family:x;src:url(https://${EVIL}/f.woff2) format("woff2"),url(/f.woff2)}`, '@font-face{font-family:x;src:none format("woff2"),url(/f.woff2)}', [`url(https://${EVIL}/f.woff2)`]],
      [`a{--bg:url(http://${EVIL}/x)}`, 'a{--bg:none}', [`url(http://${EVIL}/x)`]],
      [`@media print{a{background:url(//${EVIL}/x)}}`, '@media print{a{background:none}}', [`url(//${EVIL}/x)`]],
    ]);
  });

  t.test('should remove every @import, and script hooks with their declaration', async (t) => {
    check(t, [
      [`@import url(http://${EVIL}/x.css);a{color:red}`, 'a{color:red}', [`@import url(http://${EVIL}/x.css)`]],
      ['@import url(/theme.css);a{color:red}', 'a{color:red}', ['@import url(/theme.css)']],
      [`@IMPORT "//${EVIL}/x.css" screen;a{color:red}`, 'a{color:red}', [`@import "//${EVIL}/x.css" screen`]],
      [`@im\\70 ort '//${EVIL}/x.css';a{color:red}`, 'a{color:red}', [`@import '//${EVIL}/x.css'`]],
      [`@media screen{@import "//${EVIL}/x.css";a{color:red}}`, '@media screen{a{color:red}}', [`@import "//${EVIL}/x.css"`]],
      ['a{width:expression(alert(1));color:red}', 'a{width:none;color:red}', ['expression(…)']],
      ['a{behavior:url(/x.htc);-moz-binding:url(/b.xml#b);color:red}', 'a{color:red}', ['behavior:url(/x.htc)', '-moz-binding:url(/b.xml#b)']],
      ['a{BEHAVIOR : url(/x.htc)}', 'a{}', ['BEHAVIOR : url(/x.htc)']],
    ]);
  });

  t.test('should keep what stays on the site exactly as written', async (t) => {
    const kept = [
      '.hero{background:url(/images/bg.png) no-repeat;mask:url("#m")}',
      'a{background:url(images/bg.png),url(../x.png),url(?v=1),url()}',
      'a{background:url(data:image/png;base64,AAAA)}',
      'a{background:url("https://acme.docs.example/a.png")}',
      'a{background:image-set("/a.png" 1x, url(/b.png) 2x type("image/png"))}',
      'a{background:linear-gradient(red,blue),url(/x.png)}',
      '@font-face{font-family:x;src:local("X"),url(/fonts/x.woff2) format("woff2")}',
      '@namespace svg url(http://www.w3.org/2000/svg);svg|a{fill:red}',
      'a{content:"http://evil.example/x";--label:"//evil.example"}',
      '.bg-\\[url\\(http\\:\\/\\/evil\\.example\\/x\\)\\]{color:red}',
    ];
    for (const css of kept) t.same(sanitizeSiteCss(css, { siteUrl: SITE }), { css, removed: [] }, css);
  });

  t.test('should keep data: URIs of images only', async (t) => {
    check(t, [
      ['a{b:url(data:text/css,x);c:url("data:font/woff2;base64,AA");d:url(DATA:image/svg+xml,%3Csvg/%3E)}', 'a{b:none;c:none;d:url(DATA:image/svg+xml,%3Csvg/%3E)}', ['url(data:text/css,x)', 'url(data:font/woff2;base64,AA)']],
    ]);
  });

  t.test('should treat an absolute URL on the site\'s origin as a path only when the site URL is known', async (t) => {
    t.same(sanitizeSiteCss('a{background:url(https://acme.docs.example/a.png)}'), { css: 'a{background:none}', removed: ['url(https://acme.docs.example/a.png)'] });
    t.same(sanitizeSiteCss('a{background:url(https://acme.docs.example/a.png)}', { siteUrl: 'not a url' }).css, 'a{background:none}');
  });

  t.test('should give up on CSS nested deeper than any stylesheet needs', async (t) => {
    t.same(sanitizeSiteCss(`${'@media x{'.repeat(40)}a{color:red}${'}'.repeat(40)}`), { css: '', removed: ['CSS nested too deeply'] });
  });
});

t.test('urlStaysOnSite', async (t) => {
  t.test('should accept paths, fragments and image data only', async (t) => {
    const yes = ['/a.png', 'a.png', '../a.png', '#f', '', '?q', '/a//b', 'data:image/png;base64,AA', ' /a.png '];
    const no = ['//h/a', '/\\h/a', '\\\\h/a', '\\/h', 'http://h/a', 'ht\ttp://h/a', '/\t/h', '/\n/h', '\u0001//h', '\u0000//h', '/\u0000/h', 'x\u007f', 'javascript:1', 'data:text/html,x', 'mailto:a@b', 'HTTP://h'];
    t.same(yes.map((u) => urlStaysOnSite(u)), yes.map(() => true), yes.join(' | '));
    t.same(no.map((u) => urlStaysOnSite(u)), no.map(() => false), no.join(' | '));
  });

  t.test('should accept only fragments under fragmentsOnly', async (t) => {
    t.same(['#a', ' #a', '/a.png', 'data:image/png,x'].map((u) => urlStaysOnSite(u, { fragmentsOnly: true })), [true, true, false, false]);
  });

  t.test('should accept absolute http(s) URLs on the site origin', async (t) => {
    const origin = 'https://acme.docs.example';
    t.same(['https://acme.docs.example/a', 'https://ACME.docs.example/a', 'http://acme.docs.example/a', 'https://acme.docs.example:444/a', 'https://acme.docs.example.evil/a'].map((u) => urlStaysOnSite(u, { siteOrigin: origin })), [true, true, false, false, false]);
  });
});
