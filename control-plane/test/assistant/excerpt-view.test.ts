import t from 'tap';
import { EXCERPT_VIEW_CHARS, excerptView } from '../../src/assistant/excerpt-view.ts';
import { pageAudiences } from '../../src/assistant/page-audiences.ts';

t.test('excerptView', async (t) => {
  t.test('should escape raw HTML and empty unsafe links: a page cannot run script in the reader\'s panel', async (t) => {
    const view = excerptView('Hello <script>alert(1)</script> <img src=x onerror=alert(1)> [click](javascript:alert(1)) <a href="https://evil.test">x</a>');
    t.notMatch(view.html, /<script|<img|<a href="https:\/\/evil|javascript:/i);
    t.match(view.html, '&lt;script&gt;alert(1)&lt;/script&gt;');
    t.match(view.html, '<a href="">click</a>');
  });

  t.test('should keep code blocks as code and lists as lists, without Markdown marks in the text', async (t) => {
    const view = excerptView('Steps:\n\n1. Install\n2. Run\n\n```sh\nnpm i\n\nnpm start\n```\n\n> **Note:** done');
    t.equal(view.html, '<p>Steps:</p>\n<ol>\n<li>Install</li>\n<li>Run</li>\n</ol>\n<pre><code class="language-sh">npm i\n\nnpm start\n</code></pre>\n<blockquote>\n<p><strong>Note:</strong> done</p>\n</blockquote>');
    t.equal(view.text, 'Steps: Install Run npm i npm start Note: done');
  });

  t.test('should cut a long passage at a block and close a code fence it cuts', async (t) => {
    const code = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n');
    const view = excerptView(`\`\`\`text\n${code}\n\`\`\`\n\nAfter the code.`);
    t.match(view.html, /^<pre><code class="language-text">line 0\n/);
    t.match(view.html, /<\/code><\/pre>$/, 'the fence is closed');
    t.notMatch(view.html, 'After the code.');
    t.ok(view.html.length < EXCERPT_VIEW_CHARS + 200);
  });

  t.test('should leave out blocks only AI agents get, and keep what people also see', async (t) => {
    const html = '<main><p>Both read this.</p><div data-visibility="agents" style="display:none"><p>Only for agents: rotate keys.</p></div></main>';
    const view = excerptView('Both read this.\n\nOnly for agents: rotate keys.', pageAudiences(html));
    t.equal(view.html, '<p>Both read this.</p>');
    t.same(excerptView('Both read this.', pageAudiences('<div data-visibility="agents">Both read this.</div><p>Both read this.</p>')).text, 'Both read this.', 'shown to people too: kept');
  });
});
