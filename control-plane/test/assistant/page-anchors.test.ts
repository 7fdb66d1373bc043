import t from 'tap';
import { anchorOf, headingKey, htmlHeadings } from '../../src/assistant/page-anchors.ts';

t.test('page-anchors', async (t) => {
  const html = '<h1>Title</h1><h1 id="title">Title<a class="heading-anchor" href="#title">#</a></h1>'
    + '<h2 id="setup">Set <code>up</code> &amp; go<a class="heading-anchor" href="#setup">#</a></h2>'
    + '<h2 id="setup-1">Set up &amp; go</h2><h2 class="update-label" id="v2-label"><a href="#v2">v2.0</a></h2>';

  t.test('should read the headings with ids, without anchor marks, entities decoded', async (t) => {
    t.same(htmlHeadings(html), [['title', 'title'], ['set up & go', 'setup'], ['set up & go', 'setup-1'], ['v2.0', 'v2-label']]);
  });

  t.test('should match an export heading by text and occurrence, or give nothing', async (t) => {
    const headings = htmlHeadings(html);
    t.equal(anchorOf(headings, 'Set `up` & go', 0), 'setup');
    t.equal(anchorOf(headings, 'Set up & go', 1), 'setup-1');
    t.equal(anchorOf(headings, 'Set up & go', 2), undefined);
    t.equal(anchorOf(headings, 'CLI', 0), undefined, 'a tab title is no heading on the page');
    t.equal(headingKey('**Bold** [link](/x)  text'), 'bold link text');
  });
});
