import t from 'tap';
import { renderCodeBlock } from '../../src/compile/code-block.ts';
import { parseCodeMeta } from '../../src/compile/code-meta.ts';
import { createSharedHighlighter } from '../../src/compile/highlighter.ts';
import { COPY, EXPAND, lines, PRE } from './code-html.ts';

t.test('renderCodeBlock', async (t) => {
  const shared = await createSharedHighlighter();
  t.teardown(() => shared.highlighter.dispose());
  const render = async (code: string, tag: string, meta: string) => renderCodeBlock(shared, code, tag, await shared.ensureLanguage(tag), parseCodeMeta(meta));
  const three = 'one\ntwo\nthree';
  const body = (classes: Record<number, string> = {}) => `${PRE}${lines(['one', 'two', 'three'], classes)}</code></pre><template class="code-raw">one\ntwo\nthree</template>`;

  t.test('should highlight a known language with both themes as CSS variables', async (t) => {
    t.equal(await render('let a = 1', 'ts', ''),
      `<figure class="code-block" data-lang="ts"><div class="code-badge">ts</div>${COPY}${PRE}<span class="line">`
      + '<span style="--shiki-light:#D73A49;--shiki-dark:#F97583">let</span><span style="--shiki-light:#24292E;--shiki-dark:#E1E4E8"> a </span>'
      + '<span style="--shiki-light:#D73A49;--shiki-dark:#F97583">=</span><span style="--shiki-light:#005CC5;--shiki-dark:#79B8FF"> 1</span></span>'
      + '</code></pre><template class="code-raw">let a = 1</template></figure>');
  });

  t.test('should highlight a Markdown or MDX fence the same whatever grammars earlier pages loaded', async (t) => {
    // Each highlighter as a fresh sandbox would have it: one meets the Markdown fence first,
    // the other after pages with YAML and TypeScript fences.
    const fresh = await createSharedHighlighter();
    const warmed = await createSharedHighlighter();
    t.teardown(() => { fresh.highlighter.dispose(); warmed.highlighter.dispose(); });
    await warmed.ensureLanguage('yaml');
    await warmed.ensureLanguage('ts');
    const fence = '---\ntitle: "Install"\n---\n\n```ts\nconst a = 1;\n```\n';
    for (const tag of ['markdown', 'mdx', 'md']) {
      const first = renderCodeBlock(fresh, fence, tag, await fresh.ensureLanguage(tag), parseCodeMeta(''));
      const later = renderCodeBlock(warmed, fence, tag, await warmed.ensureLanguage(tag), parseCodeMeta(''));
      t.equal(first, later, `${tag}: the same HTML`);
      t.match(first, '<span style="--shiki-light:#22863A;--shiki-dark:#85E89D">title</span>', `${tag}: the front matter coloured as YAML`);
    }
  });

  t.test('should render an unknown language as plain text and still badge its tag', async (t) => {
    t.equal(await render(three, 'klingon', ''), `<figure class="code-block" data-lang="klingon"><div class="code-badge">klingon</div>${COPY}${body()}</figure>`);
  });

  t.test('should badge a fence without a tag as text', async (t) => {
    t.equal(await render(three, '', ''), `<figure class="code-block" data-lang="text"><div class="code-badge">text</div>${COPY}${body()}</figure>`);
  });

  t.test('should number lines with `lines`', async (t) => {
    t.equal(await render(three, 'txt', 'lines'), `<figure class="code-block" data-lang="txt" data-line-numbers><div class="code-badge">txt</div>${COPY}${body()}</figure>`);
  });

  t.test('should mark highlighted lines with `highlight`', async (t) => {
    t.equal(await render(three, 'txt', 'highlight={1,3}'), `<figure class="code-block" data-lang="txt"><div class="code-badge">txt</div>${COPY}${body({ 1: 'highlighted', 3: 'highlighted' })}</figure>`);
  });

  t.test('should show `diff` lines as added or removed without their marker, and copy the new version', async (t) => {
    t.equal(await render('+one\n-two\nthree', 'txt', 'diff'),
      `<figure class="code-block" data-lang="txt" data-diff><div class="code-badge">txt</div>${COPY}${PRE}${lines(['one', 'two', 'three'], { 1: 'diff add', 2: 'diff remove' })}</code></pre><template class="code-raw">one\nthree</template></figure>`);
  });

  t.test('should mark focused lines and the block with `focus`', async (t) => {
    t.equal(await render(three, 'txt', 'focus={2-3}'), `<figure class="code-block" data-lang="txt" data-has-focus><div class="code-badge">txt</div>${COPY}${body({ 2: 'focused', 3: 'focused' })}</figure>`);
  });

  t.test('should mark the block with `wrap`', async (t) => {
    t.equal(await render(three, 'txt', 'wrap'), `<figure class="code-block" data-lang="txt" data-wrap><div class="code-badge">txt</div>${COPY}${body()}</figure>`);
  });

  t.test('should ignore `expandable` for blocks of 15 lines or fewer', async (t) => {
    t.equal(await render(three, 'txt', 'expandable'), `<figure class="code-block" data-lang="txt"><div class="code-badge">txt</div>${COPY}${body()}</figure>`);
  });

  t.test('should make blocks over 15 lines expandable with a show-more control', async (t) => {
    const texts = Array.from({ length: 16 }, (_, i) => `l${i + 1}`);
    t.equal(await render(texts.join('\n'), 'txt', 'expandable'),
      `<figure class="code-block" data-lang="txt" data-expandable><div class="code-badge">txt</div>${COPY}${PRE}${lines(texts)}</code></pre><template class="code-raw">${texts.join('\n')}</template>${EXPAND}</figure>`);
  });

  t.test('should turn other words into an escaped title', async (t) => {
    t.equal(await render(three, 'txt', 'src/<app>.ts'), `<figure class="code-block" data-lang="txt"><figcaption class="code-title">src/&lt;app&gt;.ts</figcaption><div class="code-badge">txt</div>${COPY}${body()}</figure>`);
  });

  t.test('should combine every option whatever their order', async (t) => {
    const texts = Array.from({ length: 16 }, (_, i) => `l${i + 1}`);
    const expected = `<figure class="code-block" data-lang="txt" data-line-numbers data-wrap data-expandable data-has-focus><figcaption class="code-title">My app.ts</figcaption><div class="code-badge">txt</div>${COPY}`
      + `${PRE}${lines(texts, { 1: 'highlighted', 2: 'highlighted focused', 3: 'focused' })}</code></pre><template class="code-raw">${texts.join('\n')}</template>${EXPAND}</figure>`;
    t.equal(await render(texts.join('\n'), 'txt', 'lines wrap expandable highlight={1-2} focus={2,3} My app.ts'), expected);
    t.equal(await render(texts.join('\n'), 'txt', 'My focus={2,3} expandable app.ts highlight={1-2} wrap lines'), expected);
  });

  t.test('should colour every token however long tokenizing takes, as on a loaded machine', async (t) => {
    const code = 'const a = "x"; // note\nexport function f(b: number) { return a + b; }';
    const lang = await shared.ensureLanguage('ts');
    const { pair: _pair, ...twoPass } = shared;
    const both = () => [shared, twoPass].map((s) => renderCodeBlock(s, code, 'ts', lang, parseCodeMeta('')));
    const expected = both();
    t.match(expected[0], '<span style="--shiki-light:#6A737D;--shiki-dark:#6A737D">// note</span>', 'the comment is coloured');
    // Every clock reading a second later than the last: any time limit per line would run out.
    const now = Date.now;
    let clock = now();
    Date.now = () => (clock += 1000);
    let slow: string[];
    try {
      slow = both();
    } finally {
      Date.now = now;
    }
    t.same(slow, expected);
  });

  t.test('should escape the raw code for the copy button', async (t) => {
    const html = await render('a < b && "c" > d', 'txt', '');
    t.equal(html.slice(html.indexOf('<template')), '<template class="code-raw">a &lt; b &amp;&amp; &quot;c&quot; &gt; d</template></figure>');
  });
});
