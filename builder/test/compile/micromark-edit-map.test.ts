import t from 'tap';
import { EditMap } from 'micromark-util-edit-map';
import type { Event } from 'micromark-util-types';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { installLinearEditMap, linearConsume, originalConsume } from '../../src/compile/micromark-edit-map.ts';

/** A small seeded generator (mulberry32), so every run checks the same edits. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Stand-ins for events: only their identity and order matter to `consume`. */
const events = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}` as unknown as Event);

/** Applies the same edits with both implementations; returns both results. */
function both(length: number, edits: Array<{ at: number; remove: number; add: number; before: boolean }>) {
  const run = (consume: typeof originalConsume) => {
    const list = events(length, 'e');
    const map = new EditMap();
    edits.forEach((edit, i) => (edit.before ? map.addBefore(edit.at, edit.remove, events(edit.add, `a${i}.`)) : map.add(edit.at, edit.remove, events(edit.add, `a${i}.`))));
    consume.call(map, list);
    // The map is empty after consuming, as micromark's is.
    consume.call(map, list);
    return list;
  };
  return { original: run(originalConsume), linear: run(linearConsume) };
}

const CHANGELOG = [
  '---\ntitle: Changelog\n---\n',
  ...Array.from({ length: 60 }, (_, i) => [
    `<Update label="v${i}" description="Release ${i}">\n`,
    `  - Fixed [a link](/a${i}) and **bold** text.\n  - Another item with \`code\`.\n`,
    '```bash\nnpm install\n```\n',
    '> A quote\nwith a lazy line\n',
    '</Update>\n',
  ].join('\n')),
].join('\n');

t.test('micromark-edit-map', async (t) => {
  t.test('should edit event lists exactly as micromark does', async (t) => {
    const next = random(11);
    for (let round = 0; round < 500; round++) {
      const length = Math.floor(next() * 40);
      const edits = Array.from({ length: Math.floor(next() * 6) }, () => ({
        at: Math.floor(next() * (length + 1)), remove: Math.floor(next() * 4), add: Math.floor(next() * 4), before: next() < 0.3,
      }));
      const { original, linear } = both(length, edits);
      t.same(linear, original, `round ${round}`);
    }
  });

  t.test('should leave a list without edits untouched', async (t) => {
    const { original, linear } = both(5, []);
    t.same(linear, original);
    t.same(linear, events(5, 'e'));
  });

  t.test('should parse pages with many lazy lines to the same tree', async (t) => {
    const parser = unified().use(remarkParse).use(remarkMdx).use(remarkFrontmatter, ['yaml']).use(remarkGfm);
    const markdown = unified().use(remarkParse).use(remarkGfm);
    const saved = EditMap.prototype.consume;
    t.teardown(() => { EditMap.prototype.consume = saved; });
    EditMap.prototype.consume = originalConsume;
    const before = [JSON.stringify(parser.parse(CHANGELOG)), JSON.stringify(markdown.parse(`- a\n- b\nlazy\n\n> q\nlazy\n\n${CHANGELOG}`))];
    EditMap.prototype.consume = linearConsume;
    const after = [JSON.stringify(parser.parse(CHANGELOG)), JSON.stringify(markdown.parse(`- a\n- b\nlazy\n\n> q\nlazy\n\n${CHANGELOG}`))];
    t.equal(after[0], before[0]);
    t.equal(after[1], before[1]);
    t.match(before[0], /"name":"Update"/);
  });

  t.test('should install itself once for every parser', async (t) => {
    const saved = EditMap.prototype.consume;
    t.teardown(() => { EditMap.prototype.consume = saved; });
    installLinearEditMap();
    installLinearEditMap();
    t.equal(EditMap.prototype.consume, linearConsume);
  });
});
