import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import t from 'tap';
import { Text } from '../../src/components/api-text.tsx';

const html = (text: string) => renderToString(h(Text, { text }));

t.test('API descriptions', async (t) => {
  t.test('should render plain paragraphs as before', async (t) => {
    t.equal(html('Every user of the shop.'), '<p>Every user of the shop.</p>');
    t.equal(html('Fetches one user\n  by id.\n\nSecond one.'), '<p>Fetches one user\n  by id.</p><p>Second one.</p>');
    t.equal(html(''), '');
  });

  t.test('should render the Markdown OpenAPI documents write, as Mintlify does (crewAI\'s status operation)', async (t) => {
    t.equal(
      html('**📋 Reference Example Only** - *This shows the request format.*\n\nThe structure varies:\n- **running**: in progress\n- **error**: failed with\n  details\n\n1. Discover `GET /inputs`\n2. See [the guide](https://docs.example/guide) or [here](/start#top)'),
      '<p><strong>📋 Reference Example Only</strong> - <em>This shows the request format.</em></p>'
      + '<p>The structure varies:</p><ul><li><strong>running</strong>: in progress</li><li><strong>error</strong>: failed with details</li></ul>'
      + '<ol><li>Discover <code>GET /inputs</code></li><li>See <a href="https://docs.example/guide">the guide</a> or <a href="/start#top">here</a></li></ol>',
    );
  });

  t.test('should never put markup or unsafe links in the page', async (t) => {
    t.equal(html('<script>alert(1)</script> and [click](javascript:alert(1))'), '<p>&lt;script>alert(1)&lt;/script> and click)</p>');
    t.equal(html('5 * 3 * 2 and a_b_c'), '<p>5 * 3 * 2 and a_b_c</p>', 'stars with spaces and snake case stay text');
  });
});
