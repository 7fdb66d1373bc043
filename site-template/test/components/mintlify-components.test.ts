import t from 'tap';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { components } from '../../src/components/index.ts';
import { lineSet } from '../../src/components/code-block.tsx';

const { CodeBlock, Link, Badge, Steps, Step, Card, Update, View, Prompt } = components;
const html = (node: Parameters<typeof renderToString>[0]) => renderToString(node).replace(/<svg[^]*?<\/svg>/g, '<svg/>');

t.test('Mintlify components', async (t) => {
  t.test('should render a CodeBlock in the markup of highlighted fences, with its props', async (t) => {
    const out = html(h(CodeBlock, { language: 'bash', filename: 'install.sh', lines: true, wrap: true, highlight: '[2]', focus: '1' }, 'npm i\nnpm run build'));
    t.equal(out, '<figure class="code-block" data-lang="bash" data-line-numbers data-wrap data-has-focus><figcaption class="code-title">install.sh</figcaption>'
      + '<div class="code-badge">bash</div><button class="code-copy" type="button" aria-label="Copy code" hidden><svg/><svg/></button>'
      + '<pre class="code-plain" tabindex="0"><code><span class="line focused">npm i</span>\n<span class="line highlighted">npm run build</span></code></pre>'
      + '<template class="code-raw">npm i\nnpm run build</template></figure>');
    t.notMatch(html(h(CodeBlock, { nocopy: true }, 'x')), /code-copy/, 'nocopy leaves the button out');
    t.match(html(h(CodeBlock, { expandable: true, icon: 'terminal' }, '<b>')), /data-expandable.*<figcaption class="code-title"><svg\/><\/figcaption>.*&lt;b>.*code-expand/s);
    t.same([...lineSet('[1,3-4]')], [1, 3, 4]);
    t.same([...lineSet([2, 5])], [2, 5]);
    t.same([...lineSet('{1-2}')], [1, 2]);
    t.same([...lineSet(undefined)], []);
  });

  t.test('should render a Link, and refuse a script URL', async (t) => {
    t.equal(html(h(Link, { href: '/quickstart', title: 'Go', onClick: 'x' }, 'Start')), '<a title="Go" href="/quickstart">Start</a>');
    t.equal(html(h(Link, { href: 'javascript:alert(1)' }, 'x')), '<span>x</span>');
  });

  t.test('should render Badge sizes, shapes, strokes and disabled', async (t) => {
    t.equal(html(h(Badge, { color: 'blue', size: 'lg', shape: 'pill', stroke: true, disabled: true }, 'New')),
      '<span class="badge" data-color="blue" data-size="lg" data-shape="pill" data-stroke aria-disabled="true">New</span>');
    t.equal(html(h(Badge, { color: 'nope', size: 'huge' }, 'x')), '<span class="badge" data-color="gray">x</span>');
  });

  t.test('should size step titles, number steps and leave anchors out on request', async (t) => {
    t.equal(html(h(Steps, { titleSize: 'h3' }, h(Step, { title: 'One', stepNumber: 4, titleSize: 'h2', noAnchor: true }, 'x'))),
      '<ol class="steps" data-title-size="h3"><li class="step" data-number="4" style="--step-number:&quot;4&quot;"><h2 class="step-title">One</h2><div class="step-body">x</div></li></ol>');
  });

  t.test('should give cards an arrow where they lead elsewhere, or when asked', async (t) => {
    t.match(html(h(Card, { title: 'Out', href: 'https://example.com' })), /card-arrow/);
    t.notMatch(html(h(Card, { title: 'In', href: '/in' })), /card-arrow/);
    t.match(html(h(Card, { title: 'In', href: '/in', arrow: true })), /card-arrow/);
  });

  t.test('should show update tags and keep an unlabelled update without an anchor', async (t) => {
    t.match(html(h(Update, { label: 'v2', tags: ['Feature', 'Fix'] }, 'x')), /data-tags="\[&quot;Feature&quot;,&quot;Fix&quot;\]".*<li class="update-tag">Feature<\/li><li class="update-tag">Fix<\/li>/);
    t.equal(html(h(Update, { description: 'd' }, 'x')), '<section class="update"><div class="update-meta"><p class="update-description">d</p></div><div class="update-body">x</div></section>');
  });

  t.test('should mark views and prompts for the page script', async (t) => {
    t.match(html(h(View, { title: 'Python', icon: 'python' }, 'x')), /^<section class="view" data-view="Python">/);
    t.match(html(h(Prompt, { description: 'Ask' }, 'Use ', h('code', null, 'npx'), ' now')), /<template class="code-raw">Use npx now<\/template>/);
  });
});
