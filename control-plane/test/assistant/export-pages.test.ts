import t, { type Test } from 'tap';
import { exportPages } from '../../src/assistant/export-pages.ts';
import { parseLlmsFull } from '../../src/assistant/sections.ts';

const page = (i: number, body = `Text of page ${i}.\n\n## Part\n\nMore about ${i}.`) => `---\n\nSource: https://docs.example/p${i}\n\n# Page ${i}\n\n${body}\n\n`;
const site = (pages: string[]) => Buffer.from(`# Docs\n\n> The docs.\n\n${pages.join('')}`);
const base = Array.from({ length: 40 }, (_, i) => page(i));

/** Parses `before`, then `after` from it: the pages must be those of parsing `after` whole; returns how many page objects were reused. */
function reparse(t: Test, before: Buffer, after: Buffer, what: string): number {
  const last = exportPages(before);
  const next = exportPages(after, last);
  t.same(next.pages, parseLlmsFull(after.toString('utf8')), what);
  const again = exportPages(Buffer.from(after.toString('utf8') + page(999)), next);
  t.same(again.pages, parseLlmsFull(after.toString('utf8') + page(999)), `${what}, then a page added at the end`);
  return next.pages.filter((p) => last.pages.includes(p)).length;
}

t.test('export pages parsed from where the bytes differ', async (t) => {
  t.test('should reuse every page but the edited one', async (t) => {
    const edited = [...base];
    edited[17] = page(17, 'An edited body, longer than it was before, with ünïcödé.');
    t.equal(reparse(t, site(base), site(edited), 'one page edited'), 39);
  });

  t.test('should give the pages of the whole file for any change', async (t) => {
    const cases: Array<[string, string[] | Buffer]> = [
      ['the same bytes', base],
      ['a page inserted', [...base.slice(0, 10), page(100), ...base.slice(10)]],
      ['a page removed', [...base.slice(0, 10), ...base.slice(11)]],
      ['the first page edited', [page(0, 'Changed.'), ...base.slice(1)]],
      ['the last page edited', [...base.slice(0, -1), page(39, 'Changed.')]],
      ['a URL changed', [...base.slice(0, 5), page(5).replace('/p5', '/moved'), ...base.slice(6)]],
      ['a page\'s opening line broken', [...base.slice(0, 5), page(5).replace('Source: ', 'Source:  '), ...base.slice(6)]],
      ['two pages run together', [...base.slice(0, 5), page(5).replace(/\n\n$/, ''), ...base.slice(6)]],
      ['every page', base.map((_, i) => page(i, `New ${i}.`))],
      ['no pages', []],
      ['the preamble only', Buffer.from(`# Other docs\n\n${base.join('')}`)],
      ['bytes that are not UTF-8', Buffer.concat([site(base.slice(0, 20)), Buffer.from([0xff, 0xfe]), site(base.slice(20)).subarray(24)])],
    ];
    for (const [what, after] of cases) reparse(t, site(base), Buffer.isBuffer(after) ? after : site(after), what);
  });

  t.test('should match a whole parse after random edits', async (t) => {
    // A fixed sequence (xorshift): byte edits anywhere, including inside the lines that open pages.
    let seed = 0x2545f491;
    const random = (n: number) => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) % n; };
    const pieces = ['\n', '---', '\n\nSource: https://docs.example/x\n\n', '# T\n', 'é', ' ', 'word'];
    let last = exportPages(site(base));
    let mismatches = 0;
    for (let round = 0; round < 300; round++) {
      const text = last.bytes.toString('utf8');
      const at = random(text.length + 1);
      const cut = random(3) === 0 ? random(40) : 0;
      const bytes = Buffer.from(text.slice(0, at) + (random(2) ? pieces[random(pieces.length)] : '') + text.slice(at + cut));
      const next = exportPages(bytes, last);
      if (JSON.stringify(next.pages) !== JSON.stringify(parseLlmsFull(bytes.toString('utf8')))) mismatches++;
      last = next;
    }
    t.equal(mismatches, 0, '300 edits, each parsed from the last');
  });
});
