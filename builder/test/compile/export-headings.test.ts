import t from 'tap';
import { headingsAtLeast, shallowestHeading } from '../../src/compile/export-headings.ts';

t.test('export headings', async (t) => {
  t.test('should move every heading by the same amount, leaving fenced code alone', async (t) => {
    const md = '## Set up\n\n```sh\n# a comment\n```\n\n### Details\n\n~~~\n## not a heading\n```\n~~~\n\n#hashtag\n';
    t.equal(headingsAtLeast(md, 3), '### Set up\n\n```sh\n# a comment\n```\n\n#### Details\n\n~~~\n## not a heading\n```\n~~~\n\n#hashtag\n');
  });

  t.test('should leave headings already deep enough, and stop at six', async (t) => {
    t.equal(headingsAtLeast('### A\n', 3), '### A\n');
    t.equal(headingsAtLeast('no headings\n', 4), 'no headings\n');
    t.equal(headingsAtLeast('# A\n\n###### B\n', 3), '### A\n\n###### B\n');
  });

  t.test('should find the shallowest heading in a tree', async (t) => {
    t.equal(shallowestHeading([{ type: 'paragraph', children: [] }]), undefined);
    t.equal(shallowestHeading([{ type: 'blockquote', children: [{ type: 'heading', depth: 2, children: [] }] }, { type: 'heading', depth: 4, children: [] }]), 2);
  });
});
