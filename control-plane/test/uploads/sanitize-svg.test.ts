import t from 'tap';
// CSS itself (tokens, escapes, at-rules) is covered in sanitize-css.test.ts; these cases are the SVG forms.
import { sanitizeSvg } from '../../src/uploads/sanitize-svg.ts';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const XL = 'xmlns:xlink="http://www.w3.org/1999/xlink"';
const clean = (svg: string) => sanitizeSvg(Buffer.from(svg))?.toString('utf8');

t.test('sanitizeSvg', async (t) => {
  t.test('should keep a clean SVG byte for byte', async (t) => {
    const svg = `<svg ${NS} viewBox="0 0 24 24"><defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/></linearGradient></defs><path d="M0 0h24v24z" fill="url(#g)"/></svg>`;
    t.equal(clean(svg), svg);
  });

  t.test('should remove scripts, event handlers, foreignObject and attribute animation', async (t) => {
    t.equal(clean(`<svg ${NS}><script>alert(document.cookie)</script><script type="text/ecmascript"><![CDATA[alert(1)]]></script><rect width="1" height="1"/></svg>`),
      `<svg ${NS}><rect width="1" height="1"/></svg>`);
    t.equal(clean(`<svg ${NS} onload="alert(1)"><circle r="2" onclick="alert(2)" onmouseover="x()" fill="red"/></svg>`),
      `<svg ${NS}><circle r="2" fill="red"/></svg>`);
    t.equal(clean(`<svg ${NS}><foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example/"></iframe></body></foreignObject><g/></svg>`),
      `<svg ${NS}><g/></svg>`);
    t.equal(clean(`<svg ${NS}><a><animate attributeName="href" values="javascript:alert(1)"/><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a></svg>`),
      `<svg ${NS}><a><text>x</text></a></svg>`);
    t.equal(clean(`<svg ${NS}><h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script><g/></svg>`), `<svg ${NS}><g/></svg>`, 'an HTML script in a foreign namespace leaves no text behind');
  });

  t.test('should keep only same-document links: no javascript:, data:text/html or remote hrefs', async (t) => {
    t.equal(clean(`<svg ${NS} ${XL}><a href="javascript:alert(1)"><text>a</text></a><a xlink:href=" JaVaScRiPt:alert(2)"><text>b</text></a><a href="java&#x09;script:alert(3)"><text>c</text></a><a href="https://folio.dev/"><text>d</text></a><a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"><text>e</text></a><a href=" #top"><text>f</text></a></svg>`),
      `<svg ${NS} ${XL}><a><text>a</text></a><a><text>b</text></a><a><text>c</text></a><a><text>d</text></a><a><text>e</text></a><a href="#top"><text>f</text></a></svg>`);
  });

  t.test('should drop remote image and filter sources, in every namespace and spelling', async (t) => {
    t.equal(clean(`<svg ${NS} ${XL}><image href="http://evil.example/a.png" width="1"/><image xlink:href="https://evil.example/b.png" width="2"/><image href="//evil.example/c.png" width="3"/><image href="a.png" width="4"/><filter id="f"><feImage href="https://evil.example/d.png"/></filter><pattern id="p" xlink:href="https://evil.example/p.svg#p"/></svg>`),
      `<svg ${NS} ${XL}><image width="1"/><image width="2"/><image width="3"/><image width="4"/><filter id="f"><feImage/></filter><pattern id="p"/></svg>`);
  });

  t.test('should keep same-document <use> references and drop external ones', async (t) => {
    t.equal(clean(`<svg ${NS} ${XL}><defs><path id="p" d="M0 0h2v2z"/></defs><use href="#p"/><use xlink:href="#p"/><use href="https://evil.example/sprite.svg#p"/><use xlink:href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=#p"/></svg>`),
      `<svg ${NS} ${XL}><defs><path id="p" d="M0 0h2v2z"/></defs><use href="#p"/><use xlink:href="#p"/><use/><use/></svg>`);
  });

  t.test('should allow inline raster images only among data: URLs', async (t) => {
    t.equal(clean(`<svg ${NS}><image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/><image href="data:text/html;base64,PHNjcmlwdD4=" width="1"/><image href="data:image/svg+xml,%3Csvg%20onload%3Dalert(1)%3E" width="1"/></svg>`),
      `<svg ${NS}><image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/><image width="1"/><image width="1"/></svg>`);
  });

  t.test('should strip every CSS url() but url(#id) and every @import from <style>', async (t) => {
    t.equal(clean(`<svg ${NS}><style>.a{fill:red}.b{background:url(javascript:alert(1))}.c{fill:url(#g);stroke:url( 'https://evil.example/s.svg#x' )}</style><rect class="a"/></svg>`),
      `<svg ${NS}><style>.a{fill:red}.b{}.c{fill:url(#g)}</style><rect class="a"/></svg>`);
    t.equal(clean(`<svg ${NS}><style>@import url(https://evil.example/x.css);@import "https://evil.example/y.css" screen;@font-face{font-family:x;src:url(https://evil.example/f.woff)}.a{fill:red}</style><rect class="a"/></svg>`),
      `<svg ${NS}><style>.a{fill:red}</style><rect class="a"/></svg>`);
    t.equal(clean(`<svg ${NS}><style>@import url(https://evil.example/x.css);</style><g/></svg>`), `<svg ${NS}><g/></svg>`, 'a <style> left empty goes');
    t.equal(clean(`<svg ${NS}><style><![CDATA[.a{fill:\\75 rl(https://evil.example/x);stroke:blue}]]></style><g/></svg>`),
      `<svg ${NS}><style>.a{stroke:blue}</style><g/></svg>`, 'escapes are decoded before judging; CDATA content is kept as text');
  });

  t.test('should strip external url() from style and presentation attributes', async (t) => {
    t.equal(clean(`<svg ${NS}><rect style="fill:red;background-image:url(https://evil.example/t.png)" fill="url(https://evil.example/p.svg#g)" stroke="url(#g)" filter="url( 'http://evil.example/f.svg#f' )" mask="url(#m)" transform="rotate(45)"/></svg>`),
      `<svg ${NS}><rect style="fill:red" stroke="url(#g)" mask="url(#m)" transform="rotate(45)"/></svg>`);
    t.equal(clean(`<svg ${NS}><rect style="background:url(https://evil.example/t.png)" width="1"/></svg>`), `<svg ${NS}><rect width="1"/></svg>`, 'a style attribute left empty goes');
  });

  t.test('should keep clean CSS byte for byte', async (t) => {
    const svg = `<svg ${NS}><style>.st0{fill:#fff}@media (prefers-color-scheme:dark){.st0{fill:#000}}@keyframes spin{from{transform:rotate(0deg)}to{transform:rotate(360deg)}}</style><g class="st0" style="fill: red; stroke: url(#g);"/></svg>`;
    t.equal(clean(svg), svg);
  });

  t.test('should drop the DOCTYPE and its entities: no expansion, no external entities', async (t) => {
    const lol = `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">\n <!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>\n<svg ${NS}><text>&lol2;&xxe;&amp;&#169;</text></svg>`;
    t.equal(clean(lol), `<svg ${NS}><text>&amp;©</text></svg>`);
    const big = `<!DOCTYPE svg [<!ENTITY a "${'A'.repeat(100_000)}">]><svg ${NS}><text>${'&a;'.repeat(10_000)}</text></svg>`;
    t.equal(clean(big), `<svg ${NS}><text/></svg>`, 'a quadratic blow-up expands to nothing');
    t.equal(clean(`<!DOCTYPE svg [<!ENTITY x "]>"><!-- ' -->]><svg ${NS}><g/></svg>`), `<svg ${NS}><g/></svg>`, 'a "]>" inside a quoted value does not end the DOCTYPE');
    t.equal(clean(`<?xml-stylesheet href="https://evil.example/x.css"?><!-- hi --><svg ${NS}><!-- note --><g/></svg>`), `<svg ${NS}><g/></svg>`, 'processing instructions and comments go too');
  });

  t.test('should add the SVG namespace to a bare <svg>', async (t) => {
    t.equal(clean('<svg viewBox="0 0 1 1"><rect width="1" height="1"/></svg>'), `<svg ${NS} viewBox="0 0 1 1"><rect width="1" height="1"/></svg>`);
  });

  t.test('should answer undefined for anything that is not an SVG document', async (t) => {
    const cases = [
      'plain text', '<svg', `<svg ${NS}><rect></svg>`, `<html><body><svg ${NS}/></body></html>`,
      `<math xmlns="http://www.w3.org/1998/Math/MathML"/>`, `<x:svg xmlns:x="urn:other"/>`, '{"svg": true}',
    ];
    t.same(cases.map(clean), cases.map(() => undefined));
    t.equal(sanitizeSvg(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x20, 0xff, 0xfe, 0x2f, 0x3e])), undefined, 'bytes that are not UTF-8');
  });
});
